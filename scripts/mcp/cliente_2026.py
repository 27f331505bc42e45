"""The official Python SDK 2.3 speaking MCP 2026-07-28 to the live server (scripts/mcp/servidor.sh):
its default mode (one server/discover, no initialize, no error) and pinned to 2026-07-28, through
the personal token (with the API key) and an OAuth access token, every tool and both writes.

The same walk as scripts/mcp/cliente_2026.mjs, for the other official client. The full OAuth dance
(registration, sign-in, consent) is tests/mcp/test_sdk_2026.py. Exits 1 on any wrong answer.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from importlib.metadata import version as version_de
from pathlib import Path

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tests/
from tests.argumentos_demo import argumentos_demo

VERSION = "2026-07-28"
ESCRITURAS = ("comentar_solicitud", "radicar_mesa_ayuda")


async def recorrido(url: str, cabeceras: dict[str, str], modo: str, llamadas: dict) -> list[str]:
    """One client's walk; the problems found (empty when all is well)."""
    problemas: list[str] = []
    traza: list[tuple[int, str | None, str | None]] = []

    async def anotar(r: httpx2.Response) -> None:
        h = r.request.headers
        traza.append((r.status_code, h.get("mcp-method"), h.get("mcp-name")))

    async with (
        httpx2.AsyncClient(headers=cabeceras, timeout=60, event_hooks={"response": [anotar]}) as h,
        Client(streamable_http_client(url, http_client=h), mode=modo) as cliente,
    ):
        if cliente.protocol_version != VERSION:
            problemas.append(f"versión {cliente.protocol_version}")
        listadas = {t.name for t in (await cliente.list_tools()).tools}
        if listadas != set(llamadas):
            problemas.append(f"tools/list: {sorted(listadas ^ set(llamadas))}")
        previas = {}
        for nombre, args in llamadas.items():
            r = await cliente.call_tool(nombre, args)
            if r.is_error or len(r.content) != 2:
                problemas.append(f"{nombre}: {r.structured_content}")
            previas[nombre] = r
        for nombre in ESCRITURAS:
            token = (previas[nombre].structured_content or {}).get("token_confirmacion")
            args = {**llamadas[nombre], "confirmar": True, "token_confirmacion": token}
            r = await cliente.call_tool(nombre, args)
            if r.is_error:
                problemas.append(f"{nombre} confirmada: {r.structured_content}")
    if malas := [t for t in traza if t[0] != 200]:
        problemas.append(f"respuestas no 200: {malas}")
    metodos = [m for _s, m, _n in traza]
    if "initialize" in metodos or None in metodos:
        problemas.append(f"métodos enviados: {metodos}")
    if metodos.count("server/discover") != (1 if modo == "auto" else 0):
        problemas.append(f"{metodos.count('server/discover')} server/discover")
    if [n for _s, m, n in traza if m == "tools/call"] != [*llamadas, *ESCRITURAS]:
        problemas.append("Mcp-Name no acompaña cada tools/call")
    return problemas


def main() -> int:
    url = os.environ["MCP_URL"]
    with open(os.environ["MCP_DEMO"], encoding="utf-8") as archivo:
        demo = json.load(archivo)
    llamadas = argumentos_demo(demo)
    personal = {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]}
    oauth = {"Authorization": f"Bearer {demo['oauth_token']}"}
    fallos = 0
    for etiqueta, modo, cabeceras in (
        ("auto + token personal", "auto", personal),
        ("fijado + token personal", VERSION, personal),
        ("auto + OAuth", "auto", oauth),
        ("fijado + OAuth", VERSION, oauth),
    ):
        try:
            problemas = asyncio.run(recorrido(url, cabeceras, modo, llamadas))
        except Exception as exc:  # any failure is reported, and the walk goes on
            problemas = [f"excepción: {exc!r}"]
        for problema in problemas:
            print(f"FALLO {etiqueta}: {problema}")
        fallos += len(problemas)
        print(f"{etiqueta}: {len(llamadas) + len(ESCRITURAS)} llamadas")
    estado = f"{fallos} FALLOS" if fallos else "bien"
    print(f"SDK Python {version_de('mcp')} ({VERSION}): {estado}")
    return 1 if fallos else 0


if __name__ == "__main__":
    sys.exit(main())
