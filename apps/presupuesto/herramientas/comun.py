"""Pieces the budget tools share: permissions, amounts for people, schema fragments, errors."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from apps.mcp.registro import ErrorHerramienta
from apps.presupuesto.estados import EstadoLinea
from apps.presupuesto.selectors import FiltroInvalido
from hub.texto import limpiar

PLANEACION = "presupuesto.planeacion.consultar"
REPORTES = "presupuesto.reportes.consultar"
PERSONALIZADOS = "presupuesto.reportes.personalizados"

SEMAFOROS = ["verde", "amarillo", "rojo"]
# The summary for a person names at most this many projects or areas; the data has them all.
MAX_EN_RESUMEN = 8


# --- text for people ------------------------------------------------------------------------


def pesos(valor: Decimal | int | None) -> str:
    """An amount as a person reads it in Colombia: `$ 1.500.000,00`."""
    cantidad = Decimal(valor or 0).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    signo = "-" if cantidad < 0 else ""
    entero, decimales = f"{abs(cantidad):.2f}".split(".")
    grupos = f"{int(entero):,}".replace(",", ".")
    return f"{signo}$ {grupos},{decimales}"


def por_ciento(valor: Decimal | int | None) -> str:
    """A percentage with two decimals and a decimal comma: `45,50 %`."""
    cantidad = Decimal(valor or 0).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{cantidad:.2f}".replace(".", ",") + " %"


def limpio(valor: Any) -> Any:
    """Every text in a structure without invisible control characters (names are data)."""
    if isinstance(valor, str):
        return limpiar(valor)
    if isinstance(valor, dict):
        return {clave: limpio(v) for clave, v in valor.items()}
    if isinstance(valor, list | tuple):
        return [limpio(v) for v in valor]
    return valor


def lineas_en_texto(lineas: list[dict[str, Any]]) -> str:
    """`2 aprobadas, 1 en borrador` from the by-status rows (only the states that have lines)."""
    partes = [f"{f['cantidad']} {f['estado_visible'].lower()}" for f in lineas if f["cantidad"]]
    return ", ".join(partes) if partes else "ninguna"


def enumerar(elementos: list[str]) -> str:
    """The first few elements, and how many more there are."""
    visibles = elementos[:MAX_EN_RESUMEN]
    resto = len(elementos) - len(visibles)
    texto = "; ".join(visibles)
    return f"{texto}; y {resto} más" if resto > 0 else texto


# --- errors -----------------------------------------------------------------------------------


def sin_vigencia() -> ErrorHerramienta:
    return ErrorHerramienta(
        "NO_ENCONTRADO",
        "No hay una vigencia presupuestal activa: no hay tablero que mostrar. Un administrador "
        "de presupuesto debe activar la vigencia del año.",
    )


def filtro_invalido(exc: FiltroInvalido) -> ErrorHerramienta:
    """A project or area filter that matches nothing visible (or several where one is needed)."""
    mensaje = exc.mensaje
    if exc.opciones:
        mensaje = f"{mensaje} Opciones: {', '.join(exc.opciones)}."
    return ErrorHerramienta(
        "DATOS_INVALIDOS",
        limpiar(mensaje),
        campos={exc.campo: [limpiar(mensaje)]},
        opciones=[limpiar(o) for o in exc.opciones],
    )


# --- input schemas the engine cannot map by field class ---------------------------------------


# --- JSON Schema fragments of the outputs --------------------------------------------------

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
