"""`{% load presupuesto %}`: amounts as people read them in Colombia (`$ 1.500.000,00`)."""

from __future__ import annotations

from django import template

from apps.presupuesto.herramientas.formato import pesos as _pesos
from apps.presupuesto.pantallas import PERMISOS_LINEAS, tiene_alguno

register = template.Library()


@register.filter
def pesos(valor) -> str:
    """`{{ cdp.saldo|pesos }}`; empty for a missing amount."""
    return "" if valor is None or valor == "" else _pesos(valor)


@register.filter
def miles(valor) -> str:
    """A whole number with dots between thousands: `200.000`."""
    return f"{int(valor):,}".replace(",", ".")


@register.simple_tag(takes_context=True)
def ve_presupuesto(context) -> bool:
    """`{% ve_presupuesto as ve %}`: whether the person may open the budget lists (any of them)."""
    return tiene_alguno(context.get("user"), PERMISOS_LINEAS)
