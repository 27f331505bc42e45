"""Reads of the contact form."""

from __future__ import annotations

from apps.notificaciones.models import SitioContacto, normalizar_origen


def sitio_activo(codigo: str) -> SitioContacto | None:
    """The active site with that code, or None (unknown and inactive look the same)."""
    return SitioContacto.objects.activos().filter(codigo=codigo).first()


def origen_permitido(origen: str | None) -> bool:
    """True when an active site lists this browser origin (one query)."""
    buscado = normalizar_origen(origen or "")
    if buscado is None:
        return False
    for sitio in SitioContacto.objects.activos().exclude(origenes="").only("origenes"):
        if buscado in sitio.lista_origenes():
            return True
    return False
