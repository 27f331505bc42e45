"""Purge of what only grows, past its retention (`manage.py mantenimiento`, once a day).

Rows leave in batches of primary keys, each batch in its own short transaction: a million old
rows never hold a table lock for long, and an interrupted run keeps what it already did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import QuerySet

from hub.operacion.enganches import Enganche

LOTE = 5000


def _borrar(consulta: QuerySet) -> int:
    return consulta.delete()[0]


def borrar_por_lotes(
    consulta: QuerySet, *, lote: int = LOTE, borrar: Callable[[QuerySet], int] = _borrar
) -> int:
    """Delete the rows of `consulta`, `lote` primary keys at a time; how many went."""
    total = 0
    # No ORDER BY: any `lote` matching rows will do, and the database can stop at the first ones.
    while ids := list(consulta.order_by().values_list("pk", flat=True)[:lote]):
        with transaction.atomic():
            borradas = borrar(consulta.filter(pk__in=ids))
        if not borradas:
            break  # another run took these rows: it goes on, this one stops
        total += borradas
    return total


@dataclass(frozen=True)
class Purga:
    """One table's purge: what it is called, which rows, and how they are deleted."""

    nombre: str
    participio: str  # "borradas" or "borrados", agreeing with the rows' name
    consulta: QuerySet | None  # None: the retention keeps everything
    borrar: Callable[[QuerySet], int] = _borrar
    motivo: str = ""


# What each app purges, in INSTALLED_APPS order: a function of the moment that gives one Purga.
# Filled by the `retencion` module of each app (discovered at start by hub.apps).
PURGAS: Enganche[Callable[[datetime], Purga]] = Enganche("purgas de las apps")
# What runs before a real purge (not a dry run): gives the line the command prints.
ANTES_DE_PURGAR: Enganche[Callable[[], str]] = Enganche("pasos previos a la purga")


def _sesiones(ahora: datetime) -> Purga:
    sesiones = settings.HUB_RETENCION_SESIONES_DIAS
    return Purga(
        f"sesiones (vencidas hace más de {sesiones} días)",
        "borradas",
        Session.objects.filter(expire_date__lt=ahora - timedelta(days=sesiones)),
    )


def purgas(ahora: datetime) -> list[Purga]:
    """Every purge, with the retentions of the settings: the apps' ones, then the sessions."""
    return [*(purga(ahora) for purga in PURGAS), _sesiones(ahora)]


def purgar(purga: Purga, *, lote: int = LOTE) -> int:
    """Run one purge whose retention deletes something (`consulta` is not None)."""
    return borrar_por_lotes(purga.consulta, lote=lote, borrar=purga.borrar)
