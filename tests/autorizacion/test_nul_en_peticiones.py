"""A NUL byte (or a lone surrogate) in an OAuth request is malformed input, answered in the
endpoint's own format: PostgreSQL cannot hold either, and the library looks client ids, codes and
refresh tokens up in the database (a `%00` in any of them was a 500 there)."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import pytest

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.flujo import Pedido, conectar, registrar

pytestmark = pytest.mark.django_db


def _error(r, status: int, error: str) -> None:
    assert r.status_code == status, r.content
    assert r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store"
    assert json.loads(r.content)["error"] == error


def _basic(client_id: str, secreto: str = "secreto") -> str:
    valor = f"{quote(client_id, safe='')}:{secreto}".encode()
    return "Basic " + base64.b64encode(valor).decode()


def test_a_nul_in_the_client_id_at_the_token_endpoint_is_invalid_client_in_json(client):
    r = client.post(
        "/oauth/token",
        {"grant_type": "authorization_code", "code": "x", "client_id": "nadie\x00"},
    )
    _error(r, 401, "invalid_client")


def test_a_nul_in_http_basic_credentials_at_the_token_endpoint_is_invalid_client_in_json(client):
    r = client.post(
        "/oauth/token",
        {"grant_type": "authorization_code", "code": "x"},
        HTTP_AUTHORIZATION=_basic("nadie\x00"),
    )
    _error(r, 401, "invalid_client")


@pytest.mark.parametrize("campo", ["code", "refresh_token", "code_verifier"])
def test_a_nul_in_another_token_parameter_is_invalid_request_in_json(sesion, app, campo):
    datos = {
        "grant_type": "refresh_token" if campo == "refresh_token" else "authorization_code",
        "client_id": app.client_id,
        "code": "x",
        "code_verifier": "v" * 43,
        "refresh_token": "sgiort_x",
    }
    datos[campo] = "a\x00b"
    _error(sesion.post("/oauth/token", datos), 400, "invalid_request")


def test_a_nul_in_the_client_id_at_revocation_is_invalid_client_in_json(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    r = sesion.post("/oauth/revoke", {"token": tokens["access_token"], "client_id": "x\x00"})
    _error(r, 401, "invalid_client")


def test_a_nul_in_basic_credentials_at_revocation_is_invalid_client_in_json(client):
    r = client.post("/oauth/revoke", {"token": "sgioat_x"}, HTTP_AUTHORIZATION=_basic("x\x00"))
    _error(r, 401, "invalid_client")


@pytest.mark.parametrize("campo", ["client_id", "state", "code_challenge", "scope"])
def test_a_nul_in_the_authorization_request_shows_the_hubs_error_page_and_redirects_nowhere(
    sesion, app, campo
):
    pedido = Pedido(client_id=app.client_id)
    parametros = {**pedido.parametros(), campo: "a\x00b"}
    r = sesion.get("/oauth/authorize", parametros)
    assert r.status_code == 400 and "Location" not in r
    assert r["Content-Type"].startswith("text/html")
    assert "No se pudo conectar la aplicación" in r.content.decode()


def test_a_nul_in_the_authorization_request_is_refused_before_the_sign_in(client, app):
    parametros = {**Pedido(client_id="a\x00b").parametros()}
    r = client.get("/oauth/authorize", parametros)
    assert r.status_code == 400 and "Location" not in r


@pytest.mark.parametrize("mala", ["https://a.example/c\x00b", "https://a.example/\ud800"])
def test_a_nul_or_lone_surrogate_in_a_redirect_uri_is_invalid_redirect_uri(client, mala):
    r = registrar(client, redirecciones=[mala])
    _error(r, 400, "invalid_redirect_uri")
    assert not Aplicacion.objects.exists()
