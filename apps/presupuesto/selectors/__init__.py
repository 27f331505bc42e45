"""Budget reads for tools and screens: document lookups, search, and the dashboard figures.

Every function takes the user and returns only what the user's areas allow. Import from here:
`filtros` matches project and area filters, `cifras` computes the figures, `tableros` shapes the
dashboard readings, `documentos` reads CDP and RP.
"""

from __future__ import annotations

from apps.presupuesto.selectors.cifras import (
    UMBRAL_AMARILLO,
    UMBRAL_VERDE,
    Cifras,
    porcentaje,
    semaforo,
    suma,
)
from apps.presupuesto.selectors.documentos import buscar, ficha_cdp, ficha_rp
from apps.presupuesto.selectors.filtros import MAX_COINCIDENCIAS, FiltroInvalido, areas_coincidentes
from apps.presupuesto.selectors.tableros import paa_mes, resumen_area, tablero, vigencia_activa

__all__ = [
    "MAX_COINCIDENCIAS",
    "UMBRAL_AMARILLO",
    "UMBRAL_VERDE",
    "Cifras",
    "FiltroInvalido",
    "areas_coincidentes",
    "buscar",
    "ficha_cdp",
    "ficha_rp",
    "paa_mes",
    "porcentaje",
    "resumen_area",
    "semaforo",
    "suma",
    "tablero",
    "vigencia_activa",
]
