"""The one date style of the staff pages (the admin's, from hub.formatos): 27/11/2026 15:35.

Built into every template (settings.TEMPLATES builtins): `{{ valor|fecha }}`,
`{{ valor|fecha_hora }}` and `{{ tarea.vence_en|vencimiento }}` ("vencida hace 9 meses",
"vence mañana"). The API's and the tools' formats are the interface's (ISO 8601) and do not
pass through here.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.dateformat import format as formatear
from django.utils.timesince import timesince, timeuntil

register = template.Library()

FECHA = "d/m/Y"
FECHA_HORA = "d/m/Y H:i"
HORA = "H:i"


def _local(valor: datetime | date) -> datetime | date:
    if isinstance(valor, datetime) and timezone.is_aware(valor):
        return timezone.localtime(valor)
    return valor


@register.filter
def fecha(valor: datetime | date | None) -> str:
    """A day: 27/11/2026 (a datetime, on its local day)."""
    if not valor:
        return ""
    return formatear(_local(valor), FECHA)


@register.filter
def fecha_hora(valor: datetime | None) -> str:
    """A moment in local time: 27/11/2026 15:35 (a bare date, as a day)."""
    if not valor:
        return ""
    if not isinstance(valor, datetime):
        return fecha(valor)
    return formatear(_local(valor), FECHA_HORA)


def describir_vencimiento(vence: datetime, ahora: datetime) -> str:
    """How far a due moment is from `ahora`, as a person says it."""
    vence_local, ahora_local = timezone.localtime(vence), timezone.localtime(ahora)
    if vence <= ahora:
        if ahora - vence < timedelta(minutes=1):
            return "vencida hace un momento"
        return f"vencida hace {timesince(vence, ahora, depth=1)}"
    dias = (vence_local.date() - ahora_local.date()).days
    hora = formatear(vence_local, HORA)
    if dias == 0:
        return f"vence hoy a las {hora}"
    if dias == 1:
        return f"vence mañana a las {hora}"
    if dias < 14:  # "en 1 semana" hides up to six days
        return f"vence en {dias} días"
    return f"vence en {timeuntil(vence, ahora, depth=1)}"


@register.filter
def vencimiento(vence: datetime | None) -> str:
    """A task's due time relative to now: "vencida hace 9 meses", "vence mañana a las 17:00"."""
    if not vence:
        return ""
    return describir_vencimiento(vence, timezone.now())
