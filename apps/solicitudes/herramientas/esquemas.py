"""JSON Schema fragments of the request tools' inputs and outputs."""

from __future__ import annotations

from typing import Any

from apps.solicitudes.models import Estado

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
