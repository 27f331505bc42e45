"""The MCP endpoint as an OAuth protected resource (RFC 9728): every 401 keeps its envelope and
code and says where to discover the authorization server."""

from __future__ import annotations

import pytest

from apps.mcp import services
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import ajustar, rpc

pytestmark = pytest.mark.django_db

PUBLICA = "https://hub.entidad.example"
METADATOS = f"{PUBLICA}/.well-known/oauth-protected-resource/mcp/api/mcp"
SIN_ERROR = f'Bearer realm="mcp", resource_metadata="{METADATOS}"'
TOKEN_MALO = f'Bearer realm="mcp", error="invalid_token", resource_metadata="{METADATOS}"'


@pytest.fixture(autouse=True)
def publica(settings):
    settings.HUB_URL_PUBLICA = PUBLICA


def _persona():
    return UserFactory(permisos=["mcp.asistente.usar"])


def _cabeceras(caso: str) -> dict[str, str]:
    if caso == "sin credencial":
        return {}
    if caso == "esquema que no es Bearer":
        return {"Authorization": "Basic dXN1YXJpbzpjbGF2ZQ=="}
    if caso == "token desconocido":
        return {"X-MCP-User-Token": secretos.generar(PREFIJO_TOKEN)}
    if caso == "token vencido":
        return {"X-MCP-User-Token": nuevo_token(_persona(), dias=-1)[1]}
    if caso == "token revocado":
        return {"Authorization": f"Bearer {nuevo_token(_persona(), revocado=True)[1]}"}
    if caso == "clave desconocida":
        return {"X-MCP-Api-Key": secretos.generar(PREFIJO_CLAVE)}
    if caso == "clave revocada":
        clave, secreto = nueva_clave()
        services.revocar_claves(ids=[clave.pk])
        return {"X-MCP-Api-Key": secreto}
    raise AssertionError(caso)


@pytest.mark.parametrize(
    ("caso", "codigo", "desafio"),
    [
        ("sin credencial", "NO_AUTENTICADO", SIN_ERROR),
        ("esquema que no es Bearer", "NO_AUTENTICADO", SIN_ERROR),
        ("token desconocido", "TOKEN_MCP_INVALIDO", TOKEN_MALO),
        ("token vencido", "TOKEN_MCP_INVALIDO", TOKEN_MALO),
        ("token revocado", "TOKEN_MCP_INVALIDO", TOKEN_MALO),
        ("clave desconocida", "API_KEY_INVALIDA", TOKEN_MALO),
        ("clave revocada", "API_KEY_INVALIDA", TOKEN_MALO),
    ],
)
def test_every_401_keeps_its_code_and_points_to_the_resource_metadata(
    client, caso, codigo, desafio
):
    r = rpc(client, "ping", **_cabeceras(caso))
    assert r.status == 401
    assert r.cuerpo["success"] is False
    assert r.cuerpo["error"]["code"] == codigo
    assert r.http["WWW-Authenticate"] == desafio


def test_a_token_alone_where_the_key_is_required_is_401_with_the_metadata_too(client):
    ajustar(permitir_token_solo=False)
    r = rpc(client, "ping", **{"X-MCP-User-Token": nuevo_token(_persona())[1]})
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "NO_AUTENTICADO")
    assert r.http["WWW-Authenticate"] == SIN_ERROR


# --- the metadata document (RFC 9728) ------------------------------------------------------------


@pytest.mark.parametrize(
    "ruta",
    ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp/api/mcp"],
)
def test_the_protected_resource_metadata_names_the_mcp_endpoint(client, ruta):
    r = client.get(ruta)
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    assert r["Access-Control-Allow-Origin"] == "*"
    datos = r.json()
    assert datos["resource"] == f"{PUBLICA}/mcp/api/mcp"
    assert datos["authorization_servers"] == [PUBLICA]
    assert datos["scopes_supported"] == [
        "asistente:calidad",
        "asistente:escribir",
        "asistente:leer",
        "asistente:presupuesto",
        "asistente:solicitudes",
    ]
    assert datos["bearer_methods_supported"] == ["header"]


def test_the_resource_is_the_public_address_whatever_host_the_request_used(client):
    r = client.get("/.well-known/oauth-protected-resource", headers={"Host": "localhost"})
    assert r.json()["resource"] == f"{PUBLICA}/mcp/api/mcp"


def test_the_metadata_url_of_the_401_serves_the_document(client):
    desafio = rpc(client, "ping").http["WWW-Authenticate"]
    url = desafio.split('resource_metadata="')[1].rstrip('"')
    assert url.startswith(PUBLICA)
    r = client.get(url.removeprefix(PUBLICA))
    assert r.status_code == 200
    assert r.json()["resource"] == f"{PUBLICA}/mcp/api/mcp"


def test_the_authorization_server_named_is_the_one_that_publishes_its_metadata(client):
    servidor = client.get("/.well-known/oauth-protected-resource").json()["authorization_servers"]
    emisor = client.get("/.well-known/oauth-authorization-server").json()["issuer"]
    assert servidor == [emisor] == [PUBLICA]


def test_the_metadata_refuses_writes(client):
    assert client.post("/.well-known/oauth-protected-resource").status_code == 405
