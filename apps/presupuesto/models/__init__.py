"""Budget models: fiscal period, projects, assignments, PAA lines, CDP, RP and movements."""

from __future__ import annotations

from apps.presupuesto.models.cifras import Cifra
from apps.presupuesto.models.documentos import Cdp, MovimientoCdp, MovimientoRp, Rp
from apps.presupuesto.models.planeacion import (
    Actividad,
    Asignacion,
    LineaPaa,
    Proyecto,
    Vigencia,
)

__all__ = [
    "Actividad",
    "Asignacion",
    "Cdp",
    "Cifra",
    "LineaPaa",
    "MovimientoCdp",
    "MovimientoRp",
    "Proyecto",
    "Rp",
    "Vigencia",
]
