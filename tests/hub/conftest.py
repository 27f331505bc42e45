"""Fixtures shared by the hub's cache tests."""

from __future__ import annotations

import pytest
import redis.connection


@pytest.fixture
def idas(monkeypatch):
    """How many times redis-py sends something: one per round trip (a pipeline sends once)."""
    enviadas = [0]
    original = redis.connection.AbstractConnection.send_packed_command

    def contando(self, *args, **kwargs):
        enviadas[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", contando)
    return enviadas
