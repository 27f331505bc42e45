"""Pieces the request tools share: date format, schema fragments, text checks, error mapping."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from apps.mcp.registro import ErrorHerramienta
from apps.solicitudes.errores import ErrorSolicitud
from apps.solicitudes.models import Estado
from hub.texto import limpiar

# Who may use the request tools that are not tied to the inbox (interface: any of these).
PERMISOS_SOLICITUDES = ("solicitudes.bandeja.ver", "solicitudes.radicar", "solicitudes.ver_todas")

# The same answer for "does not exist" and "you cannot see it": nothing tells them apart.
NO_ENCONTRADA = "No se encontró una solicitud con ese número a la que tenga acceso."

TEXTO: dict[str, Any] = {"type": "string"}
ENTERO: dict[str, Any] = {"type": "integer", "minimum": 0}
BOOLEANO: dict[str, Any] = {"type": "boolean"}
FECHA: dict[str, Any] = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$"}
FECHA_O_NULO: dict[str, Any] = {"anyOf": [FECHA, {"type": "null"}]}
ESTADO: dict[str, Any] = {"type": "string", "enum": list(Estado.values)}
ENLACE: dict[str, Any] = {"type": "string", "pattern": r"^/solicitudes/\d+$"}


def objeto(propiedades: dict[str, Any], *, opcionales: tuple[str, ...] = ()) -> dict[str, Any]:
    """A closed object schema: every property required except `opcionales`."""
    return {
        "type": "object",
        "properties": propiedades,
        "required": [p for p in propiedades if p not in opcionales],
        "additionalProperties": False,
    }


def fecha(valor: datetime | None) -> str | None:
    """`YYYY-MM-DD HH:MM` in local time (None stays None)."""
    return timezone.localtime(valor).strftime("%Y-%m-%d %H:%M") if valor is not None else None


def texto_limpio(valor: str, minimo: int) -> str:
    """Serializer helper: invisible characters removed and trimmed; what is left must reach
    `minimo` characters (a text of zero-width characters is not a text)."""
    limpio = limpiar(valor).strip()
    if len(limpio) < minimo:
        raise serializers.ValidationError(f"Debe tener al menos {minimo} caracteres visibles.")
    return limpio


def no_encontrada() -> ErrorHerramienta:
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
