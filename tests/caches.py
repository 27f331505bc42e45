"""Cache settings the tests switch to."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache

from hub.cache.almacenes import CacheRedis

# A Redis that never answers (port 1): what every request sees while the shared cache is down.
CACHE_MUERTA = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def cliente_redis(cache: Any) -> Any:
    """A redis-py client on the cache's first server; None when the cache is not Redis."""
    if isinstance(cache, CacheRedis):
        return cache.cliente.get_client(write=True)
    if isinstance(cache, RedisCache):  # Django's own backend (the tests' dead cache, /salud/)
        return cache._cache.get_client(write=True)
    return None
