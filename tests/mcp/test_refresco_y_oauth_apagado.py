"""Two 401s of the MCP endpoint that spoke of the wrong thing: a refresh token sent as Bearer is an
OAuth token that is not an access token (TOKEN_MCP_INVALIDO, not API_KEY_INVALIDA), and with OAuth
switched off the challenge points to no OAuth metadata (a client would look for a sign-in the hub
refuses); while OAuth is on, every 401 carries `resource_metadata`."""

from __future__ import annotations

import pytest

from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.factories import UserFactory
from tests.mcp_cliente import OAUTH_INVALIDO, ajustar, rechazo, rpc

pytestmark = pytest.mark.django_db

PUBLICA = "https://hub.entidad.example"
METADATOS = f"{PUBLICA}/.well-known/oauth-protected-resource/mcp/api/mcp"


@pytest.fixture(autouse=True)
def publica(settings):
    settings.HUB_URL_PUBLICA = PUBLICA


@pytest.fixture
def refresco():
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    return emitir_token(persona, nueva_aplicacion("Claude"))[2]


def test_a_refresh_token_as_bearer_is_token_mcp_invalido(client, refresco):
    assert rechazo(refresco) == OAUTH_INVALIDO
    r = rpc(client, "ping", Authorization=f"Bearer {refresco}")
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")
    assert r.http["WWW-Authenticate"] == (
        f'Bearer realm="mcp", error="invalid_token", resource_metadata="{METADATOS}"'
    )


MALO = 'Bearer realm="mcp", error="invalid_token"'


@pytest.mark.parametrize(
    ("cabeceras", "desafio"),
    [
        ({}, 'Bearer realm="mcp"'),
        ({"Authorization": "Bearer sgioat_desconocido"}, MALO),
        ({"X-MCP-Api-Key": "sgiapi_desconocida"}, MALO),
    ],
)
def test_with_oauth_off_no_401_advertises_the_oauth_metadata(client, cabeceras, desafio):
    ajustar(oauth_habilitado=False)
    r = rpc(client, "ping", **cabeceras)
    assert r.status == 401
    assert r.http["WWW-Authenticate"] == desafio


def test_with_oauth_on_again_the_401_advertises_it_again(client):
    ajustar(oauth_habilitado=False)
    ajustar(oauth_habilitado=True)
    r = rpc(client, "ping")
    assert r.http["WWW-Authenticate"] == f'Bearer realm="mcp", resource_metadata="{METADATOS}"'
