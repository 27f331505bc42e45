"""The request tools' errors: not found (or not visible), and the services' errors mapped."""

from __future__ import annotations

from typing import Any

from apps.solicitudes.errores import ErrorSolicitud
from hub.herramientas.registro import ENCONTRADO_FALSO, ErrorHerramienta

# The same answer for "does not exist" and "you cannot see it": nothing tells them apart.
NO_ENCONTRADA = "No se encontró una solicitud con ese número a la que tenga acceso."
# What that answer adds to codigo and mensaje (the `salida_error` of the tools that give it).
SALIDA_NO_ENCONTRADA = {"encontrado": ENCONTRADO_FALSO}


def no_encontrada() -> ErrorHerramienta:
    """The one answer for a request that does not exist or that the caller cannot see."""
    return ErrorHerramienta("NO_ENCONTRADO", NO_ENCONTRADA, encontrado=False)


def error_de_dominio(exc: ErrorSolicitud, campos_tool: dict[str, str] | None = None):
    """A domain error of the services as a tool error with the same stable code.

    `campos_tool` renames the service's field names to the tool's argument names.
    """
    if exc.codigo == "NO_ENCONTRADO":
        return no_encontrada()
    extra: dict[str, Any] = {}
    if exc.campos:
        nombres = campos_tool or {}
        extra["campos"] = {nombres.get(c, c): p for c, p in exc.campos.items()}
    return ErrorHerramienta(exc.codigo, exc.detalle, **extra)
