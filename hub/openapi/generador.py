"""The schema generator: walks the real URLconf and documents each v1 route by its declaration."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, URLResolver
from drf_spectacular.drainage import warn
from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator

from hub.openapi.operaciones import OPERACIONES, POR_NOMBRE_DE_RUTA

# Routes under /api/ that are not part of the interface: the schema, its page, the 404 catch-all.
FUERA_DEL_CONTRATO = re.compile(r"^/(api/(schema|docs)/|\(\?P<resto>)")


def nombre_de(callback: Callable) -> str:
    """module.name of a plain view, or of the DRF view class behind `as_view()`."""
    objetivo: Any = getattr(callback, "cls", callback)
    return f"{objetivo.__module__}.{objetivo.__name__}"


class Enumerador(EndpointEnumerator):
    """Only the declared routes, each with its documentation view in place of the real one."""

    def _get_api_endpoints(self, patterns, prefix):
        if patterns is None:
            patterns = self.patterns
        endpoints = []
        for pattern in patterns:
            path_regex = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                endpoints.extend(self._get_api_endpoints(pattern.url_patterns, path_regex))
                continue
            if not isinstance(pattern, URLPattern):
                continue
            path = self.get_path_from_regex(path_regex)
            declarada = OPERACIONES.get(nombre_de(pattern.callback))
            if declarada is None:
                if "/api/" in path and not FUERA_DEL_CONTRATO.match(path):
                    warn(f"ruta de API sin documentar en hub/openapi/operaciones.py: {path}")
                continue
            vista, metodos = declarada
            vista = POR_NOMBRE_DE_RUTA.get(pattern.name or "", vista)
            callback = vista.as_view()
            endpoints.extend((path, path_regex, metodo, callback) for metodo in metodos)
        return endpoints


class Generador(SchemaGenerator):
    """drf-spectacular's generator over the declared routes."""

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
