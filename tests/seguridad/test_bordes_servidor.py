"""Protocol edges against a real gunicorn, where the test client cannot reach: bodies sent with
Transfer-Encoding: chunked, and a credential header sent twice (joined with a comma by gunicorn)."""

from __future__ import annotations

import json

import httpx
import pytest

from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from tests.procesos import entorno_migrado, manage, servidores

pytestmark = pytest.mark.procesos

MCP = "/mcp/api/mcp"
MAXIMO = 4096


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    env = entorno_migrado(tmp_path_factory.mktemp("bordes"), HUB_MAX_CUERPO=str(MAXIMO))
    clave = manage(
        env,
        "shell",
        "-c",
        "from apps.mcp.services import crear_clave_api; print(crear_clave_api(nombre='Bordes')[1])",
    ).stdout.split()[-1]
    with servidores(env, 1) as (base,):
        yield base, clave


def _trozos(cuerpo: bytes, tamano: int = 7):
    """A generator body: httpx sends it with Transfer-Encoding: chunked and no Content-Length."""
    for i in range(0, len(cuerpo), tamano):
        yield cuerpo[i : i + tamano]


def _post_chunked(base: str, clave: str, cuerpo: bytes) -> httpx.Response:
    return httpx.post(
        base + MCP,
        content=_trozos(cuerpo),
        headers={"Content-Type": "application/json", "X-MCP-Api-Key": clave},
        timeout=10,
    )


def test_a_chunked_ping_is_answered(servidor):
    base, clave = servidor
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 11, "method": "ping"}).encode()
    r = _post_chunked(base, clave, cuerpo)
    assert r.request.headers["Transfer-Encoding"] == "chunked"
    assert "Content-Length" not in r.request.headers
    assert r.status_code == 200
    assert r.json() == {"jsonrpc": "2.0", "id": 11, "result": {}}


def test_a_chunked_tool_call_is_answered(servidor):
    base, clave = servidor
    mensaje = {
        "jsonrpc": "2.0",
        "id": 12,
        "method": "tools/call",
        "params": {"name": "buscar_documento", "arguments": {"texto": "manual de calidad"}},
    }
    r = _post_chunked(base, clave, json.dumps(mensaje).encode())
    assert r.status_code == 200
    resultado = r.json()["result"]
    assert resultado["isError"] is False
    assert resultado["structuredContent"]["texto"] == "manual de calidad"


def test_a_chunked_body_past_the_limit_is_413(servidor):
    base, clave = servidor
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 13, "method": "ping", "x": "a" * MAXIMO})
    r = _post_chunked(base, clave, cuerpo.encode())
    assert r.status_code == 413
    assert r.json()["success"] is False
    assert r.json()["error"]["code"] == "PAYLOAD_DEMASIADO_GRANDE"


@pytest.mark.parametrize("cabecera", ["X-MCP-User-Token", "X-MCP-Api-Key"])
def test_a_credential_header_sent_twice_with_different_values_is_400_credencial_ambigua(
    servidor, cabecera
):
    base, _ = servidor
    prefijo = PREFIJO_TOKEN if cabecera == "X-MCP-User-Token" else PREFIJO_CLAVE
    uno, otro = secretos.generar(prefijo), secretos.generar(prefijo)
    r = httpx.post(
        base + MCP,
        content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        headers=[("Content-Type", "application/json"), (cabecera, uno), (cabecera, otro)],
        timeout=10,
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "CREDENCIAL_AMBIGUA"
