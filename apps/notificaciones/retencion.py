"""How long contact messages are kept: their purge for `manage.py mantenimiento`
(hub.operacion.retencion)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from apps.notificaciones.models import MensajeContacto
from hub.operacion.retencion import PURGAS, Purga


@PURGAS.agregar
def mensajes_de_contacto(ahora: datetime) -> Purga:
    contacto = settings.HUB_RETENCION_CONTACTO_DIAS
    return Purga(
        f"mensajes de contacto (más de {contacto} días)",
        "borrados",
        MensajeContacto.objects.recibidos_antes_de(ahora - timedelta(days=contacto)),
    )
