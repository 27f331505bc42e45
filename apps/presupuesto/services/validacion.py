"""Checks of what people write in the budget: amounts, text, dates, the external number."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from apps.presupuesto.services.errores import ErrorPresupuesto
from hub.busqueda.texto import limpiar

CENTAVO = Decimal("0.01")
# 18 digits with 2 decimals: anything from 10^16 up does not fit the columns.
MAXIMO = Decimal(10) ** 16


def valor(dato, campo: str = "valor", *, cero: bool = False) -> Decimal:
    """An amount with at most 2 decimals, positive (or zero when `cero`), that fits the column."""
    try:
        numero = dato if isinstance(dato, Decimal) else Decimal(str(dato).strip())
    except (InvalidOperation, ValueError, TypeError):
        raise ErrorPresupuesto({campo: ["Debe ser un número."]}) from None
    if not numero.is_finite():
        raise ErrorPresupuesto({campo: ["Debe ser un número."]})
    if numero < 0 or (numero == 0 and not cero):
        minimo = "mayor o igual a cero" if cero else "mayor que cero"
        raise ErrorPresupuesto({campo: [f"Debe ser {minimo}."]})
    if numero != numero.quantize(CENTAVO):
        raise ErrorPresupuesto({campo: ["Admite como máximo dos decimales."]})
    if numero >= MAXIMO:
        raise ErrorPresupuesto({campo: ["Es demasiado grande."]})
    return numero.quantize(CENTAVO)


def texto(dato: str | None, campo: str, *, maximo: int | None = None, vacio: bool = False) -> str:
    """Text people wrote, without invisible characters; required unless `vacio`."""
    limpio = limpiar(dato).strip()
    if not limpio and not vacio:
        raise ErrorPresupuesto({campo: ["Este campo es obligatorio."]})
    if maximo is not None and len(limpio) > maximo:
        raise ErrorPresupuesto({campo: [f"Admite como máximo {maximo} caracteres."]})
    return limpio


def fecha(dato, campo: str) -> datetime.date | None:
    """A date (a datetime's date), None, or a clear error."""
    if dato is None or isinstance(dato, datetime.date):
        return dato.date() if isinstance(dato, datetime.datetime) else dato
    raise ErrorPresupuesto({campo: ["Debe ser una fecha."]})


def numero_externo(dato: str | None) -> str | None:
    """The number another system gave the document, upper-case; empty is None."""
    limpio = texto(dato, "numero_externo", maximo=30, vacio=True).upper()
    return limpio or None
