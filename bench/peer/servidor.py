"""The same estado_solicitud tool, served by the official Python MCP SDK instead of our view.

`uvicorn bench.peer.servidor:app --workers N`. Stateless JSON mode (no sessions, no SSE), over
the same database and cache as the hub: the credential headers go through our own
`apps.mcp.credenciales.identificar` and the answer comes from the same tool function
(`apps.solicitudes.herramientas.estado.estado_solicitud`) and selector. What the peer does NOT
do, and the hub does on every call: the per-user rate limit (one Redis round trip) and the
audit row (one INSERT in a transaction). The peer is therefore given the easier job.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
django.setup()

from django.http import HttpRequest  # noqa: E402
from mcp.server.mcpserver import Context, MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

from apps.mcp import credenciales  # noqa: E402
from apps.mcp.models import AjustesAsistente  # noqa: E402
from hub.herramientas.registro import ErrorHerramienta, Llamada, registro  # noqa: E402
from hub.http.respuestas import ErrorAPI  # noqa: E402

HERRAMIENTA = registro.obtener("estado_solicitud")


def _request(cabeceras: Mapping[str, str], ip: str) -> HttpRequest:
    """A Django request carrying just what the credential check reads (headers and address)."""
    request = HttpRequest()
    request.method = "POST"
    request.META = {"REMOTE_ADDR": ip}
    for nombre, valor in cabeceras.items():
        request.META["HTTP_" + nombre.upper().replace("-", "_")] = valor
    return request


def atender(cabeceras: Mapping[str, str], ip: str, numero_radicado: str) -> dict[str, Any]:
    """Credential check + tool function, exactly the hub's code; raises ToolError on refusal."""
    request = _request(cabeceras, ip)
    ajustes = AjustesAsistente.cargar()
    try:
        identidad = credenciales.identificar(request, ajustes)
    except ErrorAPI as exc:
        raise ToolError(f"{exc.code}: {exc.detalle}") from None
    llamada = Llamada(
        identidad=identidad, herramienta=HERRAMIENTA, ajustes=ajustes, request=request
    )
    try:
        return HERRAMIENTA.funcion(llamada, {"numero_radicado": numero_radicado}).datos
    except ErrorHerramienta as exc:
        raise ToolError(f"{exc.codigo}: {exc.mensaje}") from None


servidor = MCPServer(name="peer-sdk", version="1.0.0")


@servidor.tool(name="estado_solicitud", description=HERRAMIENTA.descripcion)
def estado_solicitud(numero_radicado: str, ctx: Context) -> dict[str, Any]:
    """Sync on purpose: the SDK runs it in a worker thread, as Django's ORM requires."""
    peticion = ctx.request_context.request
    ip = peticion.client.host if peticion is not None and peticion.client else "127.0.0.1"
    return atender(ctx.headers or {}, ip, numero_radicado)


app = servidor.streamable_http_app(
    streamable_http_path="/mcp", json_response=True, stateless_http=True
)
