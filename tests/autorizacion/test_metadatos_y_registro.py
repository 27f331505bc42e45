"""Discovery (RFC 8414) and client registration (RFC 7591) as an MCP client meets them."""

from __future__ import annotations

import pytest

from apps.autorizacion.models import Aplicacion
from apps.autorizacion.vistas import REGISTROS_POR_HORA
from apps.mcp.models import AjustesAsistente
from tests.autorizacion.flujo import registrar

pytestmark = pytest.mark.django_db

BASE = "http://127.0.0.1:8000"


def _ajustar(**campos) -> None:
    ajustes = AjustesAsistente.fila()
    for nombre, valor in campos.items():
        setattr(ajustes, nombre, valor)
    ajustes.save()


def test_the_authorization_server_metadata_lists_exactly_what_it_accepts(client):
    r = client.get("/.well-known/oauth-authorization-server")
    assert r.status_code == 200 and r["Access-Control-Allow-Origin"] == "*"
    assert r.json() == {
        "issuer": BASE,
        "authorization_endpoint": f"{BASE}/oauth/authorize",
        "token_endpoint": f"{BASE}/oauth/token",
        "registration_endpoint": f"{BASE}/oauth/register",
        "revocation_endpoint": f"{BASE}/oauth/revoke",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": [
            "asistente:calidad",
            "asistente:escribir",
            "asistente:leer",
            "asistente:presupuesto",
            "asistente:solicitudes",
        ],
        "token_endpoint_auth_methods_supported": [
            "none",
            "client_secret_post",
            "client_secret_basic",
        ],
        "revocation_endpoint_auth_methods_supported": [
            "none",
            "client_secret_post",
            "client_secret_basic",
        ],
        "authorization_response_iss_parameter_supported": True,
        # On by default (any public host): Claude and ChatGPT connect without registering.
        "client_id_metadata_document_supported": True,
    }


def test_the_issuer_is_the_public_address_whatever_host_was_asked(client, settings):
    r = client.get("/.well-known/oauth-authorization-server", HTTP_HOST="localhost")
    assert r.json()["issuer"] == BASE


def test_metadata_documents_are_announced_only_while_switched_on(client):
    _ajustar(oauth_cimd_habilitado=True, oauth_cimd_dominios=["claude.ai"])
    datos = client.get("/.well-known/oauth-authorization-server").json()
    assert datos["client_id_metadata_document_supported"] is True


@pytest.mark.parametrize(
    "uri",
    [
        "http://127.0.0.1:33418/callback",
        "http://localhost/callback",
        "http://[::1]:8123/cb",
        "https://claude.ai/api/mcp/auth_callback",
    ],
)
def test_a_client_registers_itself_without_signing_in(client, uri):
    r = registrar(client, redirecciones=[uri], nombre="Claude")
    assert r.status_code == 201
    datos = r.json()
    assert datos["redirect_uris"] == [uri] and datos["client_name"] == "Claude"
    assert datos["token_endpoint_auth_method"] == "none"
    assert datos["grant_types"] == ["authorization_code", "refresh_token"]
    # RFC 7592 is not offered: no management token nor address.
    assert "registration_access_token" not in datos and "registration_client_uri" not in datos
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    assert app.registration_source == "dcr" and app.client_type == "public"
    assert not app.verificada and not app.deshabilitada


@pytest.mark.parametrize(
    "uri",
    [
        "http://asistente.example.com/callback",
        "http://127.0.0.2/callback",
        "http://localhost.example.com/cb",
        "javascript:alert(1)",
        "ftp://127.0.0.1/cb",
    ],
)
def test_a_redirect_that_is_neither_https_nor_loopback_http_is_refused(client, uri):
    r = registrar(client, redirecciones=["https://ok.example/cb", uri])
    assert r.status_code == 400
    assert r.json()["error"] == "invalid_redirect_uri"
    assert not Aplicacion.objects.exists()


def test_a_client_name_is_stored_stripped_of_invisible_characters(client):
    r = registrar(client, nombre="Asis\u202etente\u200b\tde\x00 prueba")
    assert r.json()["client_name"] == "Asistente de prueba"


def test_only_the_authorization_code_grant_can_be_registered(client):
    r = registrar(client, grant_types=["client_credentials"])
    assert r.status_code == 400 and r.json()["error"] == "invalid_client_metadata"


def test_the_rfc7592_management_endpoints_are_not_mounted(client):
    client_id = registrar(client).json()["client_id"]
    for metodo in (client.get, client.put, client.delete):
        assert metodo(f"/oauth/register/{client_id}").status_code == 404
        assert metodo(f"/oauth/register/{client_id}/").status_code == 404


def test_with_open_registration_off_nobody_registers_and_it_is_not_announced(client):
    _ajustar(oauth_registro_abierto=False)
    r = registrar(client)
    assert r.status_code == 403 and r.json()["error"] == "access_denied"
    assert (
        "registration_endpoint" not in client.get("/.well-known/oauth-authorization-server").json()
    )
    assert not Aplicacion.objects.exists()


def test_registration_is_counted_per_address(client):
    for _ in range(REGISTROS_POR_HORA):
        assert registrar(client).status_code == 201
    r = registrar(client)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert r.json()["error"] == "temporarily_unavailable"
    # Another address is counted apart.
    assert registrar(client, desde="10.0.0.9").status_code == 201


def test_a_body_that_is_not_json_is_a_metadata_error_not_a_500(client):
    r = client.post("/oauth/register", "{no", content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "invalid_client_metadata"


def test_with_the_cache_down_registration_fails_closed_with_a_clear_answer(client, monkeypatch):
    from hub.http import limites

    def sin_cache(**kwargs):
        raise limites.CacheNoDisponible("prueba")

    monkeypatch.setattr(limites, "contar", sin_cache)
    r = registrar(client)
    assert r.status_code == 503 and r.json()["error"] == "temporarily_unavailable"
    assert not Aplicacion.objects.exists()


def test_a_client_that_names_no_auth_method_gets_a_secret_shown_once(client):
    r = registrar(client, token_endpoint_auth_method=None)
    assert r.status_code == 201
    datos = r.json()
    assert datos["token_endpoint_auth_method"] == "client_secret_basic"
    assert datos["client_secret"] and datos["client_secret_expires_at"] == 0
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    assert app.client_type == "confidential" and app.client_secret != datos["client_secret"]


@pytest.mark.parametrize("metodo", ["client_secret_basic", "none"])
def test_a_registration_answer_is_never_cached(client, metodo):
    # RFC 6749 5.1: a response with credentials (here client_secret) carries no-store and no-cache.
    r = registrar(client, token_endpoint_auth_method=metodo)
    assert r.status_code == 201 and r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store" and r["Pragma"] == "no-cache"
