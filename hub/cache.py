"""The shared caches: Redis (production, several hosts) and a file store for one host.

Both hold what every process must agree on: the rate-limit counts, the singletons (limits,
assistant settings, the write switch) and the published brand.

`CacheRedis` is Django's Redis backend with three changes:
- one `redis.Redis` per connection pool, not a new one per operation (redis-py's constructor
  fills a table of ~170 response callbacks: ~0.1 ms of CPU each time);
- django-ratelimit's count costs one round trip: `add(key, 1)` of a rate-limit key is an atomic
  INCR that sets the expiry on creation (a Lua script), and the `incr()` that django-ratelimit
  sends right after it on the same key is answered from that result; any other `incr()` is one
  INCRBY-if-exists (Django's sends EXISTS first: two round trips);
- after a connection failure or timeout the cache is skipped for HUB_CACHE_PAUSA seconds: a hung
  Redis (stopped, not refusing) would otherwise make every request wait its socket timeout on
  every cache call; callers then act as for a dead cache (DESIGN.md section 5).

`CacheArchivo` (no REDIS_URL) is diskcache's Django backend: SQLite files under var/cache that
every process of the host shares, with atomic `add` and `incr`. Several gunicorn workers count
the same limits and see the same brand and settings; several hosts need Redis.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from diskcache import DjangoCache
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

# django-ratelimit's keys start with this (RATELIMIT_CACHE_PREFIX, default "rl:").
PREFIJO_LIMITES = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")

_SUMAR = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""
_INCREMENTAR_SI_EXISTE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
return false
"""


class CachePausada(redis.exceptions.ConnectionError):
    """The cache failed moments ago and is being left alone for a few seconds."""


class Pausa:
    """A cache client's memory of its last failure (per process: each one finds out alone)."""

    def __init__(self) -> None:
        self.hasta = 0.0  # time.monotonic() until which the cache is skipped
        self.ultimo_error = ""

    def comprobar(self) -> None:
        if time.monotonic() < self.hasta:
            raise CachePausada("caché en pausa tras un fallo reciente")

    def fallo(self, exc: Exception) -> None:
        segundos = settings.HUB_CACHE_PAUSA
        if segundos and time.monotonic() >= self.hasta:
            logger.error(
                "caché no disponible (%s): se omite durante %s s", type(exc).__name__, segundos
            )
        self.hasta = time.monotonic() + segundos
        self.ultimo_error = type(exc).__name__

    def restante(self) -> float:
        """Seconds left in the pause (0 when the cache is in use)."""
        return max(0.0, self.hasta - time.monotonic())


_FALLOS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class TuboVigilado(redis.client.Pipeline):
    """A pipeline that respects and feeds its client's pause."""

    pausa: Pausa

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        self.pausa.comprobar()
        try:
            return super().execute(raise_on_error)
        except CachePausada:
            raise
        except _FALLOS as exc:
            self.pausa.fallo(exc)
            raise


class RedisVigilado(redis.Redis):
    """redis.Redis whose every command respects and feeds the pause of its cache client."""

    pausa: Pausa

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.pausa.comprobar()
        try:
            return super().execute_command(*args, **options)
        except CachePausada:
            raise
        except _FALLOS as exc:
            self.pausa.fallo(exc)
            raise

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> TuboVigilado:
        tubo = TuboVigilado(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        tubo.pausa = self.pausa
        return tubo


class ClienteRedis(RedisCacheClient):
    """One `RedisVigilado` per connection pool, and the one-round-trip counting of rate limits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._client = RedisVigilado
        self.pausa = Pausa()
        self._clientes: dict[int, Any] = {}
        self._scripts: dict[int, tuple[Any, Any]] = {}
        # The last count `sumar` made on this thread: django-ratelimit asks incr() for it next.
        self._ultima = threading.local()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        cliente = self._clientes.get(id(pool))
        if cliente is None:
            cliente = self._client(connection_pool=pool)
            cliente.pausa = self.pausa
            self._clientes[id(pool)] = cliente
        return cliente

    def _script(self, cliente: Any, cual: int) -> Any:
        guardados = self._scripts.get(id(cliente))
        if guardados is None:
            guardados = self._scripts[id(cliente)] = (
                cliente.register_script(_SUMAR),
                cliente.register_script(_INCREMENTAR_SI_EXISTE),
            )
        return guardados[cual]

    def sumar(self, key: str, timeout: int) -> bool:
        """Count one hit on a rate-limit key: True when this created it (its first hit)."""
        cliente = self.get_client(key, write=True)
        cuenta = int(self._script(cliente, 0)(keys=[key], args=[timeout]))
        self._ultima.par = (key, cuenta)
        return cuenta == 1

    def incr(self, key: str, delta: int) -> int:
        par = getattr(self._ultima, "par", None)
        if par is not None and par[0] == key and delta == 1:
            self._ultima.par = None
            return par[1]  # already counted by sumar(), in the same round trip
        cliente = self.get_client(key, write=True)
        valor = self._script(cliente, 1)(keys=[key], args=[delta])
        if valor is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(valor)


class CacheRedis(RedisCache):
    """Django's Redis cache with `ClienteRedis` (see the module's docstring)."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ClienteRedis

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        if isinstance(key, str) and key.startswith(PREFIJO_LIMITES) and value == 1:
            clave = self.make_and_validate_key(key, version=version)
            return self._cache.sumar(clave, self.get_backend_timeout(timeout))
        return super().add(key, value, timeout, version)


class CacheArchivo(DjangoCache):
    """diskcache's Django backend (see the module's docstring)."""


def describir() -> dict[str, Any]:
    """Which shared cache is in use, for /salud/ and `check --deploy`."""
    cache = caches["default"]
    if isinstance(cache, CacheRedis):
        pausa = cache._cache.pausa
        return {
            "tipo": "redis",
            "alcance": "todos los hosts",
            "pausada_s": round(pausa.restante(), 1),
            "ultimo_error": pausa.ultimo_error or None,
        }
    if isinstance(cache, RedisCache):
        return {"tipo": "redis", "alcance": "todos los hosts"}
    if isinstance(cache, DjangoCache):
        return {"tipo": "archivo", "alcance": "un solo host"}
    return {"tipo": type(cache).__name__, "alcance": "un solo proceso"}
