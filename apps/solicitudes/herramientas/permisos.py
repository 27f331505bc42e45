"""The permissions the request tools not tied to the inbox ask for."""

from __future__ import annotations

# Who may use the request tools that are not tied to the inbox (interface: any of these).
PERMISOS_SOLICITUDES = ("solicitudes.bandeja.ver", "solicitudes.radicar", "solicitudes.ver_todas")
