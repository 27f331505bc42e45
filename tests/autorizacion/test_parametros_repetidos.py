"""A parameter of the protocol sent twice is refused (RFC 6749 3.1 and 3.2, OAuth 2.1 3.1: "MUST
NOT be included more than once"): which of the two the server would keep is a guess another
component in the path may guess otherwise. oauthlib checks only some of them; the PKCE ones, the
code and the refresh token are the hub's. `resource` may repeat (RFC 8707 2), and a parameter
the server does not know is ignored, however many times it comes (RFC 6749 3.1)."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken, Grant

from tests.autorizacion.flujo import (
    MCP,
    Pedido,
    aprobar,
    canjear,
    conectar,
    consulta,
    refrescar,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "repetido",
    [
        "code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        "code_challenge_method=S256",
    ],
)
@pytest.mark.parametrize("aprobado", [False, True], ids=["consent", "already_approved"])
def test_a_pkce_parameter_sent_twice_gets_no_code(sesion, app, repetido, aprobado):
    if aprobado:
        conectar(sesion, app.client_id)
    Grant.objects.all().delete()
    pedido = Pedido(client_id=app.client_id)
    r = sesion.get(f"{pedido.url()}&{repetido}")
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_request" and datos["state"] == pedido.state
    assert repetido.split("=")[0] in datos["error_description"] and "code" not in datos
    assert not Grant.objects.exists()


def test_resource_may_repeat_and_an_unknown_parameter_sent_twice_is_ignored(sesion, app):
    pedido = Pedido(client_id=app.client_id, resource=MCP)
    r = sesion.get(f"{pedido.url()}&resource=https://otro.example/api&extra=1&extra=2")
    assert r.status_code == 200 and 'name="allow"' in r.content.decode()


@pytest.mark.parametrize("repetido", ["code", "code_verifier"])
def test_a_code_or_verifier_sent_twice_gets_no_token(sesion, app, repetido):
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    datos = {
        "grant_type": "authorization_code",
        "code": codigo,
        "redirect_uri": pedido.redirect_uri,
        "client_id": app.client_id,
        "code_verifier": pedido.verificador,
    }
    datos[repetido] = [datos[repetido], "otro-valor-" + "x" * 40]
    r = sesion.post("/oauth/token", datos)
    assert r.status_code == 400 and r["Cache-Control"] == "no-store"
    assert r.json()["error"] == "invalid_request" and repetido in r.json()["error_description"]
    assert not AccessToken.objects.exists()
    assert canjear(sesion, pedido, codigo).status_code == 200  # sent once, the same code works


@pytest.mark.parametrize("repetido", ["refresh_token", "scope"])
def test_a_refresh_token_or_scope_sent_twice_gets_no_token(sesion, app, repetido):
    _, tokens = conectar(sesion, app.client_id)
    valores = {
        "refresh_token": [tokens["refresh_token"], tokens["refresh_token"]],
        "scope": ["asistente:leer", "asistente:leer asistente:escribir"],
    }
    r = refrescar(sesion, app.client_id, tokens["refresh_token"], **{repetido: valores[repetido]})
    assert r.status_code == 400 and r["Cache-Control"] == "no-store"
    assert r.json()["error"] == "invalid_request" and repetido in r.json()["error_description"]
    assert refrescar(sesion, app.client_id, tokens["refresh_token"]).status_code == 200
