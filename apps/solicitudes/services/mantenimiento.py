"""Maintenance of derived data."""

from __future__ import annotations

from django.db import transaction

from apps.solicitudes.models import (
    Solicitud,
    TipoSolicitud,
)


def reindexar_busqueda(*, tipo: TipoSolicitud | None = None, lote: int = 2000) -> int:
    """Recompute the search column (e.g. after a type is renamed); returns rows updated."""
    qs = Solicitud.objects.select_related("tipo").order_by("pk")
    if tipo is not None:
        qs = qs.filter(tipo=tipo)
    total = 0
    ultimo = 0
    while True:
        filas = list(qs.filter(pk__gt=ultimo)[:lote])
        if not filas:
            return total
        for fila in filas:
            fila.preparar_busqueda()
        with transaction.atomic():
            Solicitud.objects.bulk_update(filas, ["busqueda"], batch_size=lote)
        total += len(filas)
        ultimo = filas[-1].pk
