"""JSON Schema fragments of the budget tools' outputs."""

from __future__ import annotations

from typing import Any

from apps.presupuesto.estados import EstadoLinea

SEMAFOROS = ["verde", "amarillo", "rojo"]

TEXTO: dict[str, Any] = {"type": "string"}
TEXTO_O_NULO: dict[str, Any] = {"type": ["string", "null"]}
NUMERO: dict[str, Any] = {"type": "number"}
NUMERO_O_NULO: dict[str, Any] = {"type": ["number", "null"]}
ENTERO: dict[str, Any] = {"type": "integer"}
CONTEO: dict[str, Any] = {"type": "integer", "minimum": 0}
FECHA: dict[str, Any] = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
FECHA_O_NULO: dict[str, Any] = {"anyOf": [FECHA, {"type": "null"}]}
MES: dict[str, Any] = {"type": "string", "pattern": r"^\d{4}-\d{2}$"}


def objeto(propiedades: dict[str, Any], requeridos: list[str] | None = None) -> dict[str, Any]:
    """A closed object schema whose listed properties are all required unless told otherwise."""
    return {
        "type": "object",
        "properties": propiedades,
        "required": list(propiedades) if requeridos is None else requeridos,
        "additionalProperties": False,
    }


def lista(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


CIFRAS: dict[str, Any] = {
    "asignado": NUMERO,
    "programado": NUMERO,
    "certificado": NUMERO,
    "comprometido": NUMERO,
    "obligado": NUMERO,
    "disponible": NUMERO,
    "porcentaje_disponible": NUMERO,
    "avance": NUMERO,
    "semaforo": {"type": "string", "enum": SEMAFOROS},
}
AREA = objeto({"id": ENTERO, "sigla": TEXTO, "nombre": TEXTO})
PROYECTO = objeto({"id": ENTERO, "codigo": TEXTO, "nombre": TEXTO})
LINEAS_POR_ESTADO = lista(
    objeto(
        {
            "estado": {"type": "string", "enum": list(EstadoLinea.values)},
            "estado_visible": TEXTO,
            "cantidad": CONTEO,
            "valor": NUMERO,
        }
    )
)
LINEAS_TOTAL = objeto({"cantidad": CONTEO, "valor": NUMERO})
POR_PROYECTO = lista(objeto({**PROYECTO["properties"], **CIFRAS}))
POR_AREA = lista(objeto({**AREA["properties"], **CIFRAS}))
UMBRALES = objeto({"verde": NUMERO, "amarillo": NUMERO})
