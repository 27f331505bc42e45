"""The token endpoint as a client meets it (RFC 6749 section 5, OAuth 2.1, RFC 7636, RFC 8707):
every answer is JSON and never cached, and each hostile request is refused with its exact error
and gives no token."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant

from tests.autorizacion.flujo import (
    MCP,
    Pedido,
    aprobar,
    canjear,
    conectar,
    consulta,
    refrescar,
    registrar,
)

pytestmark = pytest.mark.django_db

OTRO = "https://otro.example/api"


def _codigo(sesion, app, **pedido) -> tuple[Pedido, str]:
    p = Pedido(client_id=app.client_id, **pedido)
    return p, consulta(aprobar(sesion, p)["Location"])["code"]


def _error(r, status: int, error: str) -> dict:
    """An RFC 6749 5.2 error: its status, JSON with its code, never cached (5.1)."""
    assert r.status_code == status, r.content
    assert r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store" and r["Pragma"] == "no-cache"
    datos = json.loads(r.content)
    assert datos["error"] == error
    return datos


# --- the shape of every answer ---------------------------------------------------------------


def test_a_token_response_is_json_and_never_cached(sesion, app):
    p, codigo = _codigo(sesion, app)
    r = canjear(sesion, p, codigo)
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store" and r["Pragma"] == "no-cache"


def test_a_code_asked_for_another_resource_than_it_was_given_is_invalid_target_in_json(sesion, app):
    # RFC 8707 2.2: the token request may narrow the resource, never widen it.
    p, codigo = _codigo(sesion, app, resource=MCP)
    datos = _error(canjear(sesion, p, codigo, resource=OTRO), 400, "invalid_target")
    assert OTRO in datos["error_description"]
    assert not AccessToken.objects.exists()


def test_a_malformed_resource_at_the_token_endpoint_is_invalid_target_in_json(sesion, app):
    p, codigo = _codigo(sesion, app)
    _error(canjear(sesion, p, codigo, resource="relativo/x"), 400, "invalid_target")
    assert not AccessToken.objects.exists()


def test_a_refresh_asking_for_another_resource_is_invalid_target_in_json(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    r = refrescar(sesion, app.client_id, tokens["refresh_token"], resource=OTRO)
    _error(r, 400, "invalid_target")
    assert AccessToken.objects.get().resource == [MCP]  # nothing new issued, nothing rotated


def test_parameters_in_the_query_string_are_refused_in_json(sesion, app):
    # RFC 6749 3.2: the token request's parameters go in the form body.
    _, codigo = _codigo(sesion, app)
    r = sesion.post(f"/oauth/token?code={codigo}", {"grant_type": "authorization_code"})
    datos = _error(r, 400, "invalid_request")
    assert datos["error_description"] == "URL query parameters are not allowed"
    assert not AccessToken.objects.exists()


def test_a_json_body_is_not_read_as_the_form_it_must_be(sesion, app):
    p, codigo = _codigo(sesion, app)
    cuerpo = {
        "grant_type": "authorization_code",
        "code": codigo,
        "client_id": app.client_id,
        "redirect_uri": p.redirect_uri,
        "code_verifier": p.verificador,
    }
    r = sesion.post("/oauth/token", json.dumps(cuerpo), content_type="application/json")
    _error(r, 400, "unsupported_grant_type")
    assert not AccessToken.objects.exists()
    assert canjear(sesion, p, codigo).status_code == 200  # the same, as a form, is a token


def test_the_token_endpoint_takes_only_post(client):
    assert client.get("/oauth/token").status_code == 405


# --- client authentication (RFC 6749 5.2: 401 with WWW-Authenticate) ----------------------------


def test_an_unknown_client_is_401_invalid_client_with_its_challenge(client):
    r = client.post(
        "/oauth/token", {"grant_type": "authorization_code", "code": "x", "client_id": "nadie"}
    )
    _error(r, 401, "invalid_client")
    assert r["WWW-Authenticate"] == 'Bearer error="invalid_client"'


def test_bad_basic_credentials_are_401_invalid_client_with_its_challenge(client):
    basic = base64.b64encode(b"nadie:secreto").decode()
    r = client.post(
        "/oauth/token",
        {"grant_type": "authorization_code", "code": "x"},
        HTTP_AUTHORIZATION=f"Basic {basic}",
    )
    _error(r, 401, "invalid_client")
    assert r["WWW-Authenticate"] == 'Bearer error="invalid_client"'


# --- the code and its PKCE ----------------------------------------------------------------------


def test_a_code_without_its_verifier_gets_no_token(sesion, app):
    p, codigo = _codigo(sesion, app)
    datos = {
        "grant_type": "authorization_code",
        "code": codigo,
        "client_id": app.client_id,
        "redirect_uri": p.redirect_uri,
    }
    r = sesion.post("/oauth/token", datos)
    assert _error(r, 400, "invalid_request")["error_description"] == "Code verifier required."
    assert not AccessToken.objects.exists()


def test_a_code_presented_by_another_client_gets_no_token(sesion, app):
    otra = registrar(sesion, nombre="Otro").json()["client_id"]
    p, codigo = _codigo(sesion, app)
    _error(canjear(sesion, p, codigo, client_id=otra), 400, "invalid_grant")
    assert not AccessToken.objects.exists()


def test_a_code_older_than_its_minute_gets_no_token(sesion, app):
    p, codigo = _codigo(sesion, app)
    Grant.objects.update(expires=timezone.now() - timedelta(seconds=1))
    _error(canjear(sesion, p, codigo), 400, "invalid_grant")
    assert not AccessToken.objects.exists()


# --- refresh ------------------------------------------------------------------------------------


def test_a_refresh_asking_for_more_scope_than_approved_is_invalid_scope(sesion, app):
    _, tokens = conectar(sesion, app.client_id, scope="asistente:leer")
    r = refrescar(
        sesion, app.client_id, tokens["refresh_token"], scope="asistente:leer asistente:escribir"
    )
    _error(r, 400, "invalid_scope")


def test_a_refresh_may_narrow_the_scope(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    r = refrescar(sesion, app.client_id, tokens["refresh_token"], scope="asistente:leer")
    assert r.status_code == 200 and r.json()["scope"] == "asistente:leer"


def test_a_refresh_token_presented_by_another_client_is_invalid_grant(sesion, app):
    otra = registrar(sesion, nombre="Otro").json()["client_id"]
    _, tokens = conectar(sesion, app.client_id)
    _error(refrescar(sesion, otra, tokens["refresh_token"]), 400, "invalid_grant")
    assert refrescar(sesion, app.client_id, tokens["refresh_token"]).status_code == 200
