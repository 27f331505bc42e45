"""Validation helpers (and the certified total of a cell) shared by the budget services."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db.models import Sum

from apps.presupuesto.models import Cdp
from apps.presupuesto.models.base import CERO
from hub.texto import limpiar

CENTAVO = Decimal("0.01")
# 18 digits with 2 decimals: anything from 10^16 up does not fit the columns.
MAXIMO = Decimal(10) ** 16


class ErrorPresupuesto(ValidationError):
    """A budget operation the rules do not allow; Spanish message, stable `code`.

    Codes: dato_invalido, transicion_invalida, saldo_insuficiente, sin_asignacion,
    tope_excedido, numero_duplicado. A ValidationError, so admin forms show it as such.
    """

    def __init__(self, mensaje, code: str = "dato_invalido", params=None):
        super().__init__(mensaje, code=code, params=params)
        # ValidationError drops `code` for dict messages; keep it for callers either way.
        self.codigo = code

    @property
    def texto(self) -> str:
        """Every message in one line (for admin messages and tool errors)."""
        return " ".join(self.messages)


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
    if dato is None or isinstance(dato, datetime.date):
        return dato.date() if isinstance(dato, datetime.datetime) else dato
    raise ErrorPresupuesto({campo: ["Debe ser una fecha."]})


VERBOS = {
    "revisar": "pasar a revisión",
    "devolver": "devolver",
    "reenviar": "reenviar",
    "rechazar": "rechazar",
    "expedir": "expedir",
    "anular": "anular",
    "enviar": "enviar a revisión",
    "aprobar": "aprobar",
    "cerrar": "cerrar",
}


def transicion(
    tabla: dict[str, tuple[frozenset[str], str]], accion: str, estado: str, etiqueta: str
) -> str:
    """The state `accion` leads to from `estado`, or a clear error when not allowed."""
    origenes, destino = tabla[accion]
    if estado not in origenes:
        raise ErrorPresupuesto(
            f"No se puede {VERBOS.get(accion, accion)} {etiqueta} en estado «{estado}».",
            code="transicion_invalida",
        )
    return destino


def numero_externo(dato: str | None) -> str | None:
    limpio = texto(dato, "numero_externo", maximo=30, vacio=True).upper()
    return limpio or None


def certificado_celda(proyecto_id: int, area_id: int, *, excluir: int | None = None) -> Decimal:
    """What the certified CDPs of a (project, area) cell add up to (`excluir`: one CDP's pk)."""
    qs = Cdp.objects.certificados().filter(proyecto_id=proyecto_id, area_id=area_id)
    if excluir is not None:
        qs = qs.exclude(pk=excluir)
    return qs.aggregate(total=Sum("valor_actual"))["total"] or CERO
