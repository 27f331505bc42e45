"""Fixtures shared by the hub's cache tests."""

from __future__ import annotations

import os
import uuid

import pytest
import redis.connection
from django.core.cache import caches
from django.test import override_settings

from tests.caches import cliente_redis
from tests.procesos import REDIS_POR_DEFECTO


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


@pytest.fixture
def redis_real():
    """The default cache is a real Redis for this test (REDIS_URL, or the local one), under a
    private prefix whatever cache the rest of the run uses; its keys are removed afterwards.
    Yields the redis-py client, to look at what the cache left there."""
    prefijo = f"idas-{uuid.uuid4().hex[:8]}"
    conf = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheRedis",
            "LOCATION": os.environ.get("REDIS_URL") or REDIS_POR_DEFECTO,
            "KEY_PREFIX": prefijo,
        }
    }
    with override_settings(CACHES=conf):
        cliente = cliente_redis(caches["default"])
        try:
            yield cliente
        finally:
            claves = list(cliente.scan_iter(f"{prefijo}:*"))
            if claves:
                cliente.delete(*claves)


@pytest.fixture
def debug_de_la_demo(settings):
    """DEBUG on as under `make run`, with the branded error pages HubConfig.ready installs then
    (this test process started without DEBUG, so the fixture installs and removes them)."""
    from hub.http import paginas_error

    settings.DEBUG = True
    settings.HUB_DEBUG_TECNICO = False
    paginas_error.instalar()
    yield settings
    paginas_error.desinstalar()
