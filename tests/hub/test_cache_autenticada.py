"""Cache-Control: answers to a credential or a signed-in session are never stored; public answers
(brand, its images, pings) keep their own caching."""

from __future__ import annotations

import json

import pytest

from apps.marca.api import INMUTABLE, REVALIDAR
from apps.marca.selectors import marca_publica
from tests.factories import UserFactory
from tests.marca.factories import png, poner_imagen
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.solicitudes.conftest import flujo  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

MCP = "/mcp/api/mcp"
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"  # Django's never_cache


def _mcp(client, cuerpo, **cabeceras):
    datos = cuerpo if isinstance(cuerpo, str) else json.dumps(cuerpo)
    return client.post(MCP, data=datos, content_type="application/json", headers=cabeceras)


@pytest.fixture
def credenciales():
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    return {"X-MCP-Api-Key": nueva_clave()[1], "X-MCP-User-Token": nuevo_token(persona)[1]}


PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def test_a_successful_mcp_answer_is_no_store(client, credenciales):
    r = _mcp(client, PING, **credenciales)
    assert r.status_code == 200
    assert r["Cache-Control"] == "no-store"


def test_a_tool_list_is_no_store(client, credenciales):
    r = _mcp(client, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, **credenciales)
    assert r.status_code == 200
    assert r["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    ("cabeceras", "cuerpo", "estado"),
    [
        ({"X-MCP-User-Token": "sgimcp_" + "A" * 38}, PING, 401),
        ({"Authorization": "Basic abc"}, PING, 401),
        ({}, PING, 401),
        ({"X-MCP-Api-Key": "sgiapi_x"}, "{no es json", 401),
    ],
    ids=["wrong token", "wrong scheme", "no credential", "broken json"],
)
def test_every_mcp_error_is_no_store(client, cabeceras, cuerpo, estado):
    r = _mcp(client, cuerpo, **cabeceras)
    assert r.status_code == estado
    assert r["Cache-Control"] == "no-store"


def test_a_json_rpc_error_with_valid_credentials_is_no_store(client, credenciales):
    r = _mcp(client, "{no es json", **credenciales)
    assert r.status_code == 200
    assert r.json()["error"]["code"] == -32700
    assert r["Cache-Control"] == "no-store"


def test_the_mcp_refusals_before_the_view_are_no_store(client, settings, credenciales):
    r = client.get(MCP, headers=credenciales)
    assert r.status_code == 405
    assert r["Cache-Control"] == "no-store"
    settings.HUB_MAX_CUERPO = 1024
    r = _mcp(client, {"jsonrpc": "2.0", "id": 1, "method": "x" * 2000}, **credenciales)
    assert r.status_code == 413
    assert r["Cache-Control"] == "no-store"


def test_the_profile_of_a_signed_in_person_is_no_store(client):
    client.force_login(UserFactory())
    r = client.get("/cuentas/perfil/")
    assert r.status_code == 200
    assert r["Cache-Control"] == NEVER_CACHE


def test_admin_pages_are_no_store(admin_client):
    r = admin_client.get("/admin/")
    assert r.status_code == 200
    assert r["Cache-Control"] == NEVER_CACHE


def test_a_page_made_for_a_signed_in_person_without_its_own_header_gets_no_store(
    client,
    flujo,  # noqa: F811
):
    solicitud = flujo.radicar()
    client.force_login(flujo.solicitante)
    r = client.get(solicitud.enlace)
    assert r.status_code == 200
    assert r["Cache-Control"] == "no-store"


def test_an_answer_that_never_reads_the_session_is_not_marked(client):
    client.force_login(UserFactory())
    r = client.get("/calidad/api/v1/ping")
    assert r.status_code == 200
    assert "Cache-Control" not in r


def test_the_not_found_page_of_a_signed_in_person_is_not_stored(client):
    # The branded page greets the person in its header: it was made for them.
    persona = UserFactory(first_name="Marta", last_name="Lozano")
    client.force_login(persona)
    r = client.get("/no-existe/")
    assert r.status_code == 404
    assert "Marta Lozano" in r.content.decode()
    assert r["Cache-Control"] == "no-store"


def test_the_brand_keeps_its_public_caching_for_a_signed_in_person_with_credentials(
    client, credenciales
):
    client.force_login(UserFactory())
    r = client.get("/auth/api/v1/auth/marca", headers=credenciales)
    assert r.status_code == 200
    assert r["Cache-Control"] == REVALIDAR == "public, max-age=0, must-revalidate"
    r = client.get("/auth/api/v1/auth/marca", headers={**credenciales, "If-None-Match": r["ETag"]})
    assert r.status_code == 304
    assert r["Cache-Control"] == "public, max-age=0, must-revalidate"


def test_brand_images_keep_their_caching_for_a_signed_in_person(client):
    poner_imagen("logo", png())
    client.force_login(UserFactory())
    r = client.get("/auth/api/v1/auth/marca/archivo/logo")
    assert r.status_code == 200
    assert r["Cache-Control"] == REVALIDAR
    r = client.get(f"/auth/api/v1/auth/marca/archivo/logo?v={marca_publica().version}")
    assert r["Cache-Control"] == INMUTABLE == "public, max-age=31536000, immutable"


def test_a_ping_from_a_signed_in_browser_is_untouched(client):
    client.force_login(UserFactory())
    r = client.get("/auth/api/v1/ping")
    assert r.status_code == 200
    assert "Cache-Control" not in r


def test_anonymous_public_answers_get_no_cache_header_from_us(client):
    r = client.get("/auth/api/v1/ping")
    assert "Cache-Control" not in r
    r = client.get("/auth/api/v1/auth/marca")
    assert r["Cache-Control"] == "public, max-age=0, must-revalidate"
