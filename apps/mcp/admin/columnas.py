"""List columns of the assistant's admin pages: compact local dates and coloured state badges."""

from __future__ import annotations

from django.utils import timezone
from django.utils.html import format_html

FORMATO_FECHA = "%Y-%m-%d %H:%M"


def fecha_corta(valor, formato: str = FORMATO_FECHA) -> str:
    """A date and time in local time, compact enough for a list column, never broken."""
    if not valor:
        return "—"
    return format_html(
        '<span class="nowrap">{}</span>', timezone.localtime(valor).strftime(formato)
    )


def insignia(clase: str, texto: str) -> str:
    """A state shown as a coloured badge (the class picks the colour)."""
    return format_html('<span class="estado-credencial {}">{}</span>', clase, texto)
