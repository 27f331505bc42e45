"""The schema generator: the real URLconf, with the assistant's plain view described by McpDoc."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from rest_framework.schemas.generators import is_api_view
from rest_framework.views import APIView

from hub.openapi.mcp import McpDoc

# Routes under /api/ that are not part of the interface: the schema, its page, the 404 catch-all,
# and the well-known discovery documents (RFC 8615), such as the MCP endpoint's OAuth metadata.
FUERA_DEL_CONTRATO = re.compile(r"^/(api/(schema|docs)/|\(\?P<resto>|\.well-known/)")
# The one plain view of the interface (the client's design card) and its documentation.
VISTAS_PLANAS: dict[str, tuple[type[APIView], tuple[str, ...]]] = {
    "apps.mcp.protocolo.vista_mcp": (McpDoc, ("POST", "GET")),
}


def nombre_de(callback: Callable) -> str:
    """module.name of a plain view, or of the DRF view class behind `as_view()`."""
    objetivo: Any = getattr(callback, "cls", callback)
    return f"{objetivo.__module__}.{objetivo.__name__}"


# True when the route's callback is a DRF view (`APIView.as_view()`); the tests use this name.
es_vista_drf = is_api_view


def en_el_contrato(ruta: str) -> bool:
    """True for a route of the v1 interface (an /api/ path that is not the schema or its page)."""
    return "/api/" in ruta and not FUERA_DEL_CONTRATO.match(ruta)


class Enumerador(EndpointEnumerator):
    """The interface's routes: DRF views as they are, the assistant's plain view as McpDoc.

    Only the enumerator's public methods are overridden: which routes count, their methods, and
    the plain view's stand-in on the endpoints the library has listed, deduplicated and sorted.
    """

    def should_include_endpoint(self, path: str, callback: Callable) -> bool:
        if not en_el_contrato(path):
            return False
        if nombre_de(callback) in VISTAS_PLANAS or is_api_view(callback):
            return True
        warn(f"ruta de API que no es una vista DRF: {path}")
        return False

    def get_allowed_methods(self, callback: Callable) -> list[str]:
        plana = VISTAS_PLANAS.get(nombre_de(callback))
        return list(plana[1]) if plana is not None else super().get_allowed_methods(callback)

    def get_api_endpoints(self, patterns=None, prefix: str = "") -> list[tuple]:
        documentadas: dict[str, Callable] = {}  # one McpDoc view per plain view, all its methods

        def documentada(callback: Callable) -> Callable:
            nombre = nombre_de(callback)
            if nombre not in VISTAS_PLANAS:
                return callback
            if nombre not in documentadas:
                documentadas[nombre] = VISTAS_PLANAS[nombre][0].as_view()
            return documentadas[nombre]

        return [
            (path, path_regex, metodo, documentada(callback))
            for path, path_regex, metodo, callback in super().get_api_endpoints(patterns, prefix)
        ]


class Generador(SchemaGenerator):
    """drf-spectacular's generator over the interface's routes."""

    endpoint_inspector_cls = Enumerador


def sin_marcas_internas(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Postprocessing hook: drop spectacular's internal enum ids (enums stay inline)."""

    def limpiar(nodo: Any) -> None:
        if isinstance(nodo, dict):
            nodo.pop("x-spec-enum-id", None)
            for valor in nodo.values():
                limpiar(valor)
        elif isinstance(nodo, list):
            for valor in nodo:
                limpiar(valor)

    limpiar(result)
    return result
