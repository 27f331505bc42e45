"""Dates as the request tools write them."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def fecha(valor: datetime | None) -> str | None:
    """`YYYY-MM-DD HH:MM` in local time (None stays None)."""
    return timezone.localtime(valor).strftime("%Y-%m-%d %H:%M") if valor is not None else None
