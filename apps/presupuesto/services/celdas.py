"""What a (project, area) cell already has certified: what a CDP or an assignment must respect."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum

from apps.presupuesto.models import Cdp
from apps.presupuesto.models.base import CERO


def certificado_celda(proyecto_id: int, area_id: int, *, excluir: int | None = None) -> Decimal:
    """What the certified CDPs of a (project, area) cell add up to (`excluir`: one CDP's pk)."""
    qs = Cdp.objects.certificados().filter(proyecto_id=proyecto_id, area_id=area_id)
    if excluir is not None:
        qs = qs.exclude(pk=excluir)
    return qs.aggregate(total=Sum("valor_actual"))["total"] or CERO
