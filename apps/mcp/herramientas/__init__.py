"""Assistant tools that span the whole hub (found by autodiscovery of `apps.mcp.herramientas`).

One module per tool: help manuals, the caller's own access, the global search, and the two
administration tools.
"""

from __future__ import annotations

from apps.mcp.herramientas import (  # noqa: F401  (importing registers the tools)
    buscar_ayuda,
    busqueda_global,
    diagnostico_servicio,
    mis_accesos,
    uso_asistente,
)
