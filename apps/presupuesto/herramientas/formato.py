"""Budget figures as a person reads them: amounts, percentages, short lists, clean text."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from hub.busqueda.texto import limpiar

# The summary for a person names at most this many projects or areas; the data has them all.
MAX_EN_RESUMEN = 8


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
