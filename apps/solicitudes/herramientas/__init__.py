"""Assistant tools of the requests domain (found by the autodiscovery of `herramientas`).

One module per tool: estado_solicitud, buscar_solicitudes, mis_tareas, resumen_solicitud, and
the two-step writes comentar_solicitud and radicar_mesa_ayuda.
"""

from __future__ import annotations

from apps.solicitudes.herramientas import (  # noqa: F401  (importing registers the tools)
    buscar,
    comentar,
    estado,
    mesa_ayuda,
    resumen,
    tareas,
)
