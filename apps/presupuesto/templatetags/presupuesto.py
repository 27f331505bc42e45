"""`{% load presupuesto %}`: amounts as people read them in Colombia (`$ 1.500.000,00`)."""

from __future__ import annotations

from django import template

from apps.presupuesto.herramientas.formato import pesos as _pesos

register = template.Library()


@register.filter
def pesos(valor) -> str:
    """`{{ cdp.saldo|pesos }}`; empty for a missing amount."""
    return "" if valor is None or valor == "" else _pesos(valor)


@register.filter
def miles(valor) -> str:
    """A whole number with dots between thousands: `200.000`."""
    return f"{int(valor):,}".replace(",", ".")
