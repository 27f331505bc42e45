"""Amounts in the budget admin as the site's pages write them ("$ 10.400.000,00")."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin
from django.utils.html import format_html

from apps.presupuesto.herramientas.formato import pesos


def en_pesos(valor) -> str:
    """An amount as the site's pages show it ("$ 10.400.000,00"), never broken across lines."""
    if valor is None:
        return "—"
    return format_html('<span class="dinero">{}</span>', pesos(valor))


def columna_pesos(campo: str, descripcion: str, *, ordenar: bool = True) -> Callable:
    """A list column or read-only field (a model admin's method) with the amount `campo` in pesos.

    Django's admin writes a DecimalField as "10400000,00" (no thousands separator: turning it on
    would put one in every year too), so each amount is shown through this.
    """

    @admin.display(description=descripcion, ordering=campo if ordenar else None)
    def columna(modeladmin, obj) -> str:
        return en_pesos(getattr(obj, campo))

    return columna
