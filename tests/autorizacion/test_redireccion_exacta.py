"""Redirect URIs at the authorization endpoint: an exact match of a registered one (OAuth 2.1
2.3.1, RFC 9700 2.1), except the port of a loopback one, which may be any (RFC 8252 7.3): a native
client listens on whatever port the system gives it. A refused URI is never followed."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken, Grant

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.flujo import Pedido, aprobar, canjear, consulta, registrar

pytestmark = pytest.mark.django_db

REGISTRADAS = [
    "http://127.0.0.1:33418/callback",
    "http://[::1]:8000/cb",
    "http://localhost:1234/cb",
    "https://claude.ai/api/mcp/auth_callback",
]


@pytest.fixture
def app(sesion):
    r = registrar(sesion, redirecciones=REGISTRADAS)
    return Aplicacion.objects.get(client_id=r.json()["client_id"])


@pytest.mark.parametrize(
    "uri",
    [
        "http://127.0.0.1:33418/callback/",  # trailing slash
        "http://127.0.0.1:33418/Callback",  # path case
        "http://127.0.0.1:33418/callback#x",  # fragment
        "http://127.0.0.1:33418/callback?a=1",  # a query never registered
        "http://127.0.0.2:33418/callback",  # another loopback address, not registered
        "http://127.0.0.1:33418/callback;x",  # path parameters
        "https://127.0.0.1:33418/callback",  # the loopback exception is for http
        "https://claude.ai/api/mcp/auth_callback/",
        "https://claude.ai/api/mcp/AUTH_CALLBACK",
        "https://claude.ai/api/mcp/auth_callback#",
        "https://claude.ai/api/mcp/auth_callback?",
        "https://claude.ai:443/api/mcp/auth_callback",  # not loopback: the port must match too
        "https://claude.ai:8443/api/mcp/auth_callback",
        "https://usuario@claude.ai/api/mcp/auth_callback",
        "https://claude.ai.evil.example/api/mcp/auth_callback",
        "http://claude.ai/api/mcp/auth_callback",
    ],
)
def test_a_redirect_that_is_not_exactly_a_registered_one_is_never_followed(sesion, app, uri):
    r = sesion.get(Pedido(client_id=app.client_id, redirect_uri=uri).url())
    assert r.status_code == 400 and "Location" not in r
    assert "No se pudo conectar la aplicación" in r.content.decode()
    assert not Grant.objects.exists()


@pytest.mark.parametrize(
    ("uri", "registrada"),
    [
        ("http://127.0.0.1:5555/callback", "http://127.0.0.1:33418/callback"),
        ("http://127.0.0.1/callback", "http://127.0.0.1:33418/callback"),
        ("http://[::1]:61023/cb", "http://[::1]:8000/cb"),
        ("http://localhost:49152/cb", "http://localhost:1234/cb"),
    ],
)
def test_a_loopback_redirect_may_name_any_port_and_the_code_goes_there(
    sesion, app, uri, registrada
):
    pedido = Pedido(client_id=app.client_id, redirect_uri=uri)
    r = aprobar(sesion, pedido)
    assert r.status_code == 302 and r["Location"].startswith(uri + "?")
    codigo = consulta(r["Location"])["code"]
    # The token request names the URI the code was sent to, not the one registered.
    r = canjear(sesion, pedido, codigo, redirect_uri=registrada)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    assert not AccessToken.objects.exists()
    assert canjear(sesion, pedido, codigo).status_code == 200


def test_with_several_registered_the_request_must_name_one(sesion, app):
    parametros = Pedido(client_id=app.client_id).parametros()
    del parametros["redirect_uri"]
    r = sesion.get("/oauth/authorize", parametros)
    assert r.status_code == 400 and "Location" not in r and not Grant.objects.exists()


def test_with_one_registered_the_request_may_leave_it_out(sesion):
    client_id = registrar(sesion).json()["client_id"]
    parametros = Pedido(client_id=client_id).parametros()
    del parametros["redirect_uri"]
    r = sesion.get("/oauth/authorize", parametros)
    assert r.status_code == 200 and 'name="allow"' in r.content.decode()
