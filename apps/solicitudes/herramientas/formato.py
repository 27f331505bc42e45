"""Dates as the request tools write them."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def fecha(valor: datetime | None) -> str | None:
    """`YYYY-MM-DD HH:MM` in the server's local time (TIME_ZONE; None stays None).

    The zone is named, not looked up as the active one: the hub never activates another, and
    that lookup (a context-local read) was half the cost of a date, 40 dates per mis_tareas.
    """
    if valor is None:
        return None
    return timezone.localtime(valor, timezone.get_default_timezone()).strftime("%Y-%m-%d %H:%M")
