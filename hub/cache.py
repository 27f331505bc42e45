"""Django's Redis cache backend, without building a new client object on every operation.

Django's `RedisCacheClient.get_client()` returns `redis.Redis(connection_pool=pool)` each time it
is called, and redis-py's constructor fills a table of about 170 response callbacks: roughly
0.1 ms of CPU per cache operation, five or six times per request (singletons, rate limits,
brand). A `redis.Redis` is thread-safe and only borrows connections from its pool, so one per pool
serves every operation; the pool (and its connections) is exactly Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ClienteRedis(RedisCacheClient):
    """One `redis.Redis` per connection pool, made on first use."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clientes: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        cliente = self._clientes.get(id(pool))
        if cliente is None:
            cliente = self._clientes[id(pool)] = self._client(connection_pool=pool)
        return cliente


class CacheRedis(RedisCache):
    """`django.core.cache.backends.redis.RedisCache` with `ClienteRedis`."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ClienteRedis
