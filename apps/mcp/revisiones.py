"""The framing of MCP revision 2026-07-28 beside 2025-06-18: which one a request speaks, the
per-request envelope it must carry, the fields its results add and the HTTP status of its
protocol errors. Pure functions over the message and the headers: the tools, their checks, the
audit and the confirmations are the same for both revisions (apps.mcp.llamadas).

A request speaks 2026-07-28 when its MCP-Protocol-Version header says so; everything else is
2025-06-18 exactly as before.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MODERNA = "2026-07-28"
MODERNAS = (MODERNA,)

# The reserved `_meta` keys of the per-request envelope.
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPACIDADES = "io.modelcontextprotocol/clientCapabilities"
META_SERVIDOR = "io.modelcontextprotocol/serverInfo"

HEADER_MISMATCH = -32020
UNSUPPORTED_PROTOCOL_VERSION = -32022

# 2026-07-28 gives protocol errors HTTP statuses of their own; a code not listed stays 200.
ESTADOS_HTTP: dict[int, int] = {
    -32700: 400,  # parse error
    -32600: 400,  # invalid request
    -32602: 400,  # invalid params
    HEADER_MISMATCH: 400,
    -32021: 400,  # missing required client capability
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    -32601: 404,  # method not found
}

# How long a client may reuse a tools/list answer: the list follows the credential, the person's
# permissions and the organization's switches, so it is private and short-lived (every call is
# checked again anyway).
TTL_HERRAMIENTAS_MS = 60_000
# server/discover says nothing about the caller: versions, capabilities, identity.
TTL_DESCUBRIR_MS = 300_000

APROBACION = "aprobacion"


@dataclass(frozen=True)
class Sobre:
    """The envelope of one 2026-07-28 request: its version and what the client can do."""

    version: str
    capacidades: dict[str, Any]

    @property
    def elicitacion_por_url(self) -> bool:
        """Whether the client declared URL-mode elicitation (it can send the person to a page)."""
        elicitacion = self.capacidades.get("elicitation")
        return isinstance(elicitacion, dict) and isinstance(elicitacion.get("url"), dict)


@dataclass(frozen=True)
class Rechazo:
    """A protocol error of the envelope ladder: JSON-RPC code, message and data."""

    codigo: int
    mensaje: str
    datos: dict[str, Any] | None = None


def es_moderna(version: str | None) -> bool:
    """Whether the MCP-Protocol-Version header names the 2026-07-28 revision."""
    return version is not None and version.strip() in MODERNAS


def version_no_soportada(pedida: str, soportadas: tuple[str, ...]) -> Rechazo:
    """-32022 with the versions the hub speaks, newest first, so the client can pick one."""
    return Rechazo(
        UNSUPPORTED_PROTOCOL_VERSION,
        f"Versión del protocolo no soportada: {pedida[:40]}.",
        {"supported": [*MODERNAS, *soportadas], "requested": pedida},
    )


def en_sobre_moderno(cuerpo: bytes) -> dict[str, Any] | None:
    """The message, when the body carries a 2026-07-28 style envelope (`_meta` with a version).

    Read only when the header names a version the hub does not speak: a client of the new
    generation is then told -32022 (its fallback rule), any other the 2025-06-18 answer.
    """
    try:
        mensaje = json.loads(cuerpo)
    except (ValueError, RecursionError):
        return None
    params = mensaje.get("params") if isinstance(mensaje, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get(META_VERSION), str):
        return mensaje
    return None


def _valor_de_cabecera(valor: str | None) -> str | None:
    """A header value, or the text of its `=?base64?...?=` form; None when that form is broken."""
    if valor is None or not (valor.startswith("=?base64?") and valor.endswith("?=")):
        return valor
    carga = valor[len("=?base64?") : -2]
    try:
        crudo = base64.b64decode(carga, validate=True)
        return crudo.decode("utf-8") if base64.b64encode(crudo).decode() == carga else None
    except (binascii.Error, ValueError):
        return None


def clasificar(
    mensaje: dict[str, Any], cabeceras: Mapping[str, str], soportadas: tuple[str, ...]
) -> Sobre | Rechazo:
    """The envelope of a 2026-07-28 request, or the first rung it fails.

    Rungs in the revision's order: `_meta` with the version and the client's capabilities
    (-32602), the headers agreeing with the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name on
    tools/call: -32020), then the declared version (-32022).
    """
    params = mensaje.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or META_VERSION not in meta or META_CAPACIDADES not in meta:
        return Rechazo(
            -32602,
            f"params._meta debe traer {META_VERSION} y {META_CAPACIDADES} (revisión {MODERNA}).",
        )
    version = meta[META_VERSION]
    if cabeceras.get("HTTP_MCP_PROTOCOL_VERSION", "").strip() != version:
        return Rechazo(
            HEADER_MISMATCH, "La cabecera MCP-Protocol-Version no coincide con params._meta."
        )
    if cabeceras.get("HTTP_MCP_METHOD") != mensaje["method"]:
        return Rechazo(HEADER_MISMATCH, "La cabecera Mcp-Method no coincide con el método.")
    if (
        mensaje["method"] == "tools/call"
        and params.get("name") is not None
        and _valor_de_cabecera(cabeceras.get("HTTP_MCP_NAME")) != params["name"]
    ):
        return Rechazo(
            HEADER_MISMATCH, "La cabecera Mcp-Name no coincide con el nombre de la herramienta."
        )
    if not isinstance(version, str):
        return Rechazo(-32602, "La versión del protocolo en params._meta debe ser un texto.")
    if version not in MODERNAS:
        return version_no_soportada(version, soportadas)
    capacidades = meta[META_CAPACIDADES]
    if not isinstance(capacidades, dict):
        return Rechazo(-32602, f"{META_CAPACIDADES} debe ser un objeto.")
    return Sobre(version=version, capacidades=capacidades)


def completo(resultado: dict[str, Any], **campos: Any) -> dict[str, Any]:
    """A final result of this revision: `resultType` "complete" and any caching fields."""
    return {**resultado, **campos, "resultType": "complete"}


def herramientas(resultado: dict[str, Any]) -> dict[str, Any]:
    """tools/list: how long the answer may be reused, and by whom (this credential only)."""
    return completo(resultado, ttlMs=TTL_HERRAMIENTAS_MS, cacheScope="private")


def descubrimiento(
    *,
    soportadas: tuple[str, ...],
    capacidades: dict[str, Any],
    servidor: dict[str, Any],
    instrucciones: str,
) -> dict[str, Any]:
    """server/discover: the versions the hub speaks (newest first), capabilities and identity."""
    return completo(
        {
            "supportedVersions": [*MODERNAS, *soportadas],
            "capabilities": capacidades,
            "instructions": instrucciones,
            "_meta": {META_SERVIDOR: servidor},
        },
        ttlMs=TTL_DESCUBRIR_MS,
        cacheScope="public",
    )


def con_estado_de_aprobacion(params: dict[str, Any]) -> dict[str, Any]:
    """A tools/call retried after the person was sent to the approval page: the request state is
    the confirmation token, so the call becomes the confirming one. What the client answered to
    the page (accept, or a form's content) is dropped: only the approval on the hub counts."""
    estado = params.get("requestState")
    argumentos = params.get("arguments", {})
    if not isinstance(estado, str) or not estado or not isinstance(argumentos, dict):
        return params
    return {
        **params,
        "arguments": {**argumentos, "confirmar": True, "token_confirmacion": estado},
    }


def _token_de(resultado: dict[str, Any], params: dict[str, Any]) -> str | None:
    """The confirmation token a pending approval waits on: the preview's, or the call's own."""
    datos = resultado.get("structuredContent")
    if not isinstance(datos, dict):
        return None
    if isinstance(datos.get("token_confirmacion"), str):
        return datos["token_confirmacion"]
    argumentos = params.get("arguments")
    if isinstance(argumentos, dict) and isinstance(argumentos.get("token_confirmacion"), str):
        return argumentos["token_confirmacion"]
    return None


def llamada(resultado: dict[str, Any], params: dict[str, Any], sobre: Sobre) -> dict[str, Any]:
    """tools/call: the tool's result as is, or, when the person must approve the write on the hub
    and the client can open a page for them, the revision's input request pointing at it.

    The preview of a write under hub approval and a confirmation still pending both carry the
    approval page (`aprobacion.url`); the request state is the encrypted confirmation token, so the
    client's retry confirms exactly that preview once the person approved it there.
    """
    datos = resultado.get("structuredContent")
    aprobacion = datos.get("aprobacion") if isinstance(datos, dict) else None
    pendiente = isinstance(datos, dict) and (
        datos.get("requiere_confirmacion") is True or datos.get("codigo") == "APROBACION_PENDIENTE"
    )
    token = _token_de(resultado, params)
    if (
        not sobre.elicitacion_por_url
        or not pendiente
        or not isinstance(aprobacion, dict)
        or not isinstance(aprobacion.get("url"), str)
        or token is None
    ):
        return completo(resultado)
    return {
        "resultType": "input_required",
        "inputRequests": {
            APROBACION: {
                "method": "elicitation/create",
                "params": {
                    "mode": "url",
                    "url": aprobacion["url"],
                    "message": (
                        "Abra esta página del hub, revise lo que se escribirá y pulse «Aprobar»; "
                        "nada se escribe sin esa aprobación."
                    ),
                },
            }
        },
        "requestState": token,
    }
