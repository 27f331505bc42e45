from __future__ import annotations

import datetime as dt

import pytest

from hub.ping import SERVICIOS

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
