"""How the request tools write a date: `YYYY-MM-DD HH:MM` in the server's local time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from apps.solicitudes.herramientas.formato import fecha


def test_a_tool_date_is_in_the_servers_local_time_whatever_zone_is_active():
    instante = datetime(2026, 3, 1, 3, 30, tzinfo=UTC)  # Bogotá: the day before, 22:30
    assert fecha(instante) == "2026-02-28 22:30"
    with timezone.override("Asia/Tokyo"):
        assert fecha(instante) == "2026-02-28 22:30"
    assert fecha(None) is None


def test_a_date_without_its_zone_is_refused_not_guessed():
    with pytest.raises(ValueError, match="naive"):
        fecha(datetime(2026, 3, 1, 3, 30))
