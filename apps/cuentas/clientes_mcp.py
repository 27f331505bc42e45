"""Ready-to-paste settings for the assistant clients people use, each in its own format."""

from __future__ import annotations

import json
from dataclasses import dataclass

MARCADOR_TOKEN = "SU_TOKEN_PERSONAL"
MARCADOR_CLAVE = "CLAVE_DE_API_DE_LA_ORGANIZACION"
NOMBRE_SERVIDOR = "hub"


@dataclass(frozen=True)
class Configuracion:
    """One client family: where the text goes and the text itself."""

    ident: str
    titulo: str
    donde: str
    texto: str


def _json(datos: dict) -> str:
    return json.dumps(datos, indent=2, ensure_ascii=False)


def configuraciones(endpoint: str, token: str | None, exige_clave: bool) -> list[Configuracion]:
    """VS Code (`servers`), clients that take `mcpServers` over HTTP, and the `mcp-remote` bridge
    for clients that only start local processes. With `token`, the real one is filled in."""
    cabeceras = {"X-MCP-User-Token": token or MARCADOR_TOKEN}
    if exige_clave:
        cabeceras = {"X-MCP-Api-Key": MARCADOR_CLAVE, **cabeceras}
    http = {"type": "http", "url": endpoint, "headers": cabeceras}
    # mcp-remote takes each header as "Name:value" (no space: some clients split arguments on it);
    # the secrets go in env, where the client keeps them out of the command line.
    argumentos = ["-y", "mcp-remote", endpoint]
    entorno = {}
    for nombre, valor in cabeceras.items():
        variable = "HUB_" + nombre.removeprefix("X-MCP-").replace("-", "_").upper()
        argumentos += ["--header", f"{nombre}:${{{variable}}}"]
        entorno[variable] = valor
    puente = {"command": "npx", "args": argumentos, "env": entorno}
    return [
        Configuracion(
            ident="vscode",
            titulo="VS Code",
            donde="Archivo .vscode/mcp.json del proyecto (o «MCP: Open User Configuration»).",
            texto=_json({"servers": {NOMBRE_SERVIDOR: http}}),
        ),
        Configuracion(
            ident="mcpservers",
            titulo="Cursor, Claude Code y otros clientes HTTP",
            donde="Los clientes que leen «mcpServers» (p. ej. ~/.cursor/mcp.json o .mcp.json).",
            texto=_json({"mcpServers": {NOMBRE_SERVIDOR: http}}),
        ),
        Configuracion(
            ident="puente",
            titulo="Clientes que solo abren procesos locales",
            donde="Por ejemplo Claude Desktop: usa el puente mcp-remote (requiere Node.js).",
            texto=_json({"mcpServers": {NOMBRE_SERVIDOR: puente}}),
        ),
    ]
