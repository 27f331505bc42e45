"""Shared fixtures: a clean cache for every test, and the people of the scenarios."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache


def limpiar_cache() -> None:
    """Empty this test worker's part of the cache (other workers may share the same Redis)."""
    conf = settings.CACHES["default"]
    if conf["BACKEND"].endswith("RedisCache"):
        cliente = cache._cache.get_client(write=True)
        claves = list(cliente.scan_iter(f"{conf['KEY_PREFIX']}:*"))
        if claves:
            cliente.delete(*claves)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _cache_limpia():
    limpiar_cache()
    yield
    limpiar_cache()


@pytest.fixture
def api(client):
    """Django's test client (an alias that reads well in API tests)."""
    return client
