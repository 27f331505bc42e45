"""Transitional: buscar.py (changed in parallel under issue 24 item 5) still imports these names
from here. At merge, point its import at `permisos`, `esquemas` and `formato` of this package and
delete this module; nothing else imports it."""

from __future__ import annotations

from apps.solicitudes.herramientas.esquemas import ENLACE, ENTERO, ESTADO, FECHA, TEXTO, objeto
from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.herramientas.permisos import PERMISOS_SOLICITUDES

__all__ = [
    "ENLACE",
    "ENTERO",
    "ESTADO",
    "FECHA",
    "PERMISOS_SOLICITUDES",
    "TEXTO",
    "fecha",
    "objeto",
]
