"""Token revocation (RFC 7009) beyond the happy path: an unknown token is a 200 (2.2), a token of
another client is left alone (2.1: the server checks it was issued to the client asking), and a
malformed request or unknown client is an RFC 6749 error in JSON, never cached."""

from __future__ import annotations

import json

import pytest
from oauth2_provider.models import RefreshToken

from tests.autorizacion.flujo import conectar, refrescar, registrar
from tests.mcp_cliente import OAUTH_INVALIDO, rechazo

pytestmark = pytest.mark.django_db


def _revocar(client, **datos):
    return client.post("/oauth/revoke", datos)


def _error(r, status: int, error: str) -> None:
    assert r.status_code == status, r.content
    assert r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store" and r["Pragma"] == "no-cache"
    assert json.loads(r.content)["error"] == error


@pytest.mark.parametrize("token", ["sgioat_desconocido", "sgiort_desconocido", "cualquier cosa"])
def test_an_unknown_token_is_a_200_and_changes_nothing(sesion, app, token):
    _, tokens = conectar(sesion, app.client_id)
    r = _revocar(sesion, token=token, client_id=app.client_id)
    assert r.status_code == 200 and r.content == b""
    assert rechazo(tokens["access_token"]) is None


@pytest.mark.parametrize("tipo", ["access_token", "refresh_token"])
def test_another_clients_token_is_left_alone(sesion, app, tipo):
    otra = registrar(sesion, nombre="Otro").json()["client_id"]
    _, tokens = conectar(sesion, app.client_id)
    r = _revocar(sesion, token=tokens[tipo], token_type_hint=tipo, client_id=otra)
    assert r.status_code == 200  # as for an unknown token: it tells the other client nothing
    assert rechazo(tokens["access_token"]) is None
    assert not RefreshToken.objects.filter(revoked__isnull=False).exists()
    assert refrescar(sesion, app.client_id, tokens["refresh_token"]).status_code == 200


def test_an_unknown_hint_does_not_stop_the_revocation(sesion, app):
    # RFC 7009 2.1: a hint the server cannot use widens the search; it is not an error.
    _, tokens = conectar(sesion, app.client_id)
    r = _revocar(
        sesion, token=tokens["access_token"], token_type_hint="raro", client_id=app.client_id
    )
    assert r.status_code == 200
    assert rechazo(tokens["access_token"]) == OAUTH_INVALIDO


def test_a_request_without_the_token_is_invalid_request(sesion, app):
    _error(_revocar(sesion, client_id=app.client_id), 400, "invalid_request")


@pytest.mark.parametrize("client_id", ["nadie", None])
def test_an_unknown_or_missing_client_is_401_and_revokes_nothing(sesion, app, client_id):
    _, tokens = conectar(sesion, app.client_id)
    datos = {"token": tokens["access_token"]}
    if client_id:
        datos["client_id"] = client_id
    r = _revocar(sesion, **datos)
    _error(r, 401, "invalid_client")
    assert r["WWW-Authenticate"] == 'Bearer error="invalid_client"'
    assert rechazo(tokens["access_token"]) is None


def test_a_json_body_is_not_read_as_the_form_it_must_be(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    cuerpo = json.dumps({"token": tokens["access_token"], "client_id": app.client_id})
    r = sesion.post("/oauth/revoke", cuerpo, content_type="application/json")
    _error(r, 400, "invalid_request")
    assert rechazo(tokens["access_token"]) is None


def test_revocation_takes_only_post(client):
    assert client.get("/oauth/revoke").status_code == 405
