from __future__ import annotations

import datetime as dt

import pytest

from hub.observabilidad.ping import SERVICIOS
from tests.sobre import error_del_sobre

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("servicio", [s for s in SERVICIOS if s != "archivos"])
def test_each_service_answers_its_own_name_in_the_envelope(client, servicio):
    r = client.get(f"/{servicio}/api/v1/ping")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    cuerpo = r.json()
    assert cuerpo["success"] is True
    assert cuerpo["data"]["servicio"] == servicio
    assert isinstance(cuerpo["message"], str) and cuerpo["message"]
    ts = dt.datetime.fromisoformat(cuerpo["data"]["ts"])
    assert ts.utcoffset() is not None


def test_budget_ping_adds_ok_true(client):
    assert client.get("/presupuesto/api/v1/ping").json()["data"]["ok"] is True


def test_other_pings_do_not_add_ok(client):
    assert "ok" not in client.get("/solicitudes/api/v1/ping").json()["data"]


def test_files_ping_is_a_flat_object_without_envelope(client):
    r = client.get("/archivos/api/v1/ping")
    assert r.status_code == 200
    cuerpo = r.json()
    assert set(cuerpo) == {"ok", "servicio", "ts"}
    assert cuerpo["ok"] is True and cuerpo["servicio"] == "archivos"
    assert dt.datetime.fromisoformat(cuerpo["ts"]).utcoffset() is not None


def test_ping_post_is_405_envelope_with_allow(client):
    r = client.post("/mcp/api/v1/ping")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"
    assert "GET" in r["Allow"]


def test_ping_touches_no_database(client, django_assert_num_queries):
    client.get("/calidad/api/v1/ping")  # the limits singleton is now cached
    with django_assert_num_queries(0):
        assert client.get("/calidad/api/v1/ping").status_code == 200


@pytest.mark.parametrize("servicio", [s for s in SERVICIOS if s not in ("archivos", "presupuesto")])
def test_the_ping_data_holds_exactly_servicio_and_ts(client, servicio):
    assert set(client.get(f"/{servicio}/api/v1/ping").json()["data"]) == {"servicio", "ts"}


@pytest.mark.parametrize("servicio", SERVICIOS)
@pytest.mark.parametrize("metodo", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_every_other_method_is_405_envelope_with_allow_get_head(client, servicio, metodo):
    r = client.generic(metodo, f"/{servicio}/api/v1/ping")
    error_del_sobre(r, 405, "METODO_NO_PERMITIDO")
    assert r["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("servicio", ["auth", "archivos"])
def test_head_is_200_without_a_body(client, servicio):
    r = client.head(f"/{servicio}/api/v1/ping")
    assert r.status_code == 200
    assert r.content == b""
    assert r["Content-Type"] == "application/json"


def test_a_query_string_changes_nothing(client):
    r = client.get("/auth/api/v1/ping?x=%00&servicio=otro")
    assert r.status_code == 200
    assert r.json()["data"]["servicio"] == "auth"
