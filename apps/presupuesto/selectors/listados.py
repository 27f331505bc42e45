"""The budget lists (/presupuesto/cdp/, rp/, paa/): the same visibility and word search as the
tools (busqueda_global's budget scope, estado_cdp, estado_rp, resumen_ejecutivo) plus the
state, area and date filters people use."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.db.models import QuerySet

from apps.cuentas.models import Area
from apps.presupuesto import pantallas
from apps.presupuesto.models.base import usuario_activo, ve_todas_las_areas
from apps.presupuesto.selectors.filtros import resolver_areas

# Per list: what the person may see (the tool's permission, then `visibles_para`, as on the
# document's own screen), the path from a row to its area, the date its filters read.
LISTAS: dict[str, tuple[Callable[[Any], QuerySet], str, str]] = {
    "cdp": (pantallas.cdps_visibles, "area", "fecha_expedicion"),
    "rp": (pantallas.rps_visibles, "cdp__area", "fecha_expedicion"),
    "paa": (pantallas.lineas_visibles, "area", "mes_inicio"),
}


def areas_visibles(user) -> list[tuple[str, str]]:
    """The areas the user may filter by, as (sigla, "SIGLA · nombre"), in one query."""
    if not usuario_activo(user):
        return []
    qs = Area.objects.all() if ve_todas_las_areas(user) else user.areas.all()
    return [(a.sigla, f"{a.sigla} · {a.nombre}") for a in qs.order_by("sigla")]


def filtrados(clase: str, user, datos: dict[str, Any]) -> QuerySet:
    """The rows of list `clase` the user may see that match `datos` (validated), unordered.

    `texto` is the tools' word search (`buscar`); `area` means what it means to the budget
    tools (id, abbreviation or part of the name, visible areas only: FiltroInvalido if none).
    """
    visibles, ruta_area, campo_fecha = LISTAS[clase]
    qs = visibles(user)
    if datos.get("texto"):
        qs = qs.buscar(datos["texto"])
    if datos.get("estado"):
        qs = qs.filter(estado=datos["estado"])
    areas = resolver_areas(datos.get("area") or None, user)
    if areas is not None:
        qs = qs.filter(**{f"{ruta_area}__in": areas})
    desde: date | None = datos.get("desde")
    hasta: date | None = datos.get("hasta")
    if desde is not None:
        qs = qs.filter(**{f"{campo_fecha}__gte": desde})
    if hasta is not None:
        qs = qs.filter(**{f"{campo_fecha}__lte": hasta})
    return qs
