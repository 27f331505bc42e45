"""Helpers of the contact form tests."""

from __future__ import annotations

from hub.models import Limites

URL = "/notificaciones/api/public/v1/contacto"
OMITIR = object()


def cuerpo(**cambios) -> dict:
    """A valid message, with some fields changed (or left out with OMITIR)."""
    datos = {
        "nombre": "Ana María Pérez",
        "correo": "ana.perez@correo.com",
        "asunto": "Horario de atención",
        "mensaje": "Quisiera saber el horario de atención de la sede principal.",
        "sitio": "portal",
    }
    datos.update(cambios)
    return {k: v for k, v in datos.items() if v is not OMITIR}


def poner_limites(*, diez_minutos: int | None = None, dia: int | None = None) -> None:
    """Change the contact limits the way an administrator would."""
    valores = {}
    if diez_minutos is not None:
        valores["contacto_por_10_minutos"] = diez_minutos
    if dia is not None:
        valores["contacto_por_dia"] = dia
    Limites.objects.update_or_create(pk=1, defaults=valores)
    Limites.olvidar()
