"""Assistant tools of the budget domain (found by autodiscovery of `apps.presupuesto.herramientas`).

One module per tool: estado_cdp, estado_rp, estado_presupuesto, resumen_ejecutivo and
reporte_preparar; `comun` holds what they share, `documentos` what estado_cdp and estado_rp share.
"""

from __future__ import annotations

from apps.presupuesto.herramientas import (  # noqa: F401  (importing registers the tools)
    estado_cdp,
    estado_presupuesto,
    estado_rp,
    reporte_preparar,
    resumen_ejecutivo,
)
