"""The shared caches: Redis (production, several hosts) and a file store for one host.

Both hold what every process must agree on: the rate-limit counts, the singletons (limits,
assistant settings, the write switch) and the published brand.

`CacheRedis` is Django's Redis backend, written on `BaseCache`, with these changes:
- one `redis.Redis` per connection pool, not a new one per operation (redis-py's constructor
  fills a table of ~170 response callbacks: ~0.1 ms of CPU each time);
- `incr()` is one atomic step (INCRBY only if the key exists): Django's sends EXISTS, then
  INCRBY, and a key that expires between the two comes back from INCRBY with no expiry (a count
  Redis never removes);
- after a connection failure or timeout the cache is skipped for HUB_CACHE_PAUSA seconds: a hung
  Redis (stopped, not refusing) would otherwise make every request wait its socket timeout on
  every cache call; callers then act as for a dead cache (docs/contrato.md, «Límites»);
- `en_un_viaje`: a request's declared batch in one round trip (hub.cache.lote).

Every method keeps Django's contract on its own, whatever else the process is doing: the batch is
a separate, explicit call, and its answers are handed out by hub.cache.lote, not by this backend.
Only public APIs are used: Django's `RedisCacheClient` methods and constructor arguments, and
redis-py's `ConnectionPool.from_url` and `Redis`.

`CacheArchivo` (no REDIS_URL) is diskcache's Django backend: SQLite files under var/cache that
every process of the host shares, with atomic `add` and `incr`. Several gunicorn workers count
the same limits and see the same brand and settings; several hosts need Redis.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from diskcache import DjangoCache
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient, RedisSerializer
from django.utils.functional import cached_property
from django.utils.module_loading import import_string

from hub.observabilidad import metricas

logger = logging.getLogger(__name__)

# One django-ratelimit count (ClienteRedis.en_un_viaje): created with its expiry if new, counted.
_CONTAR = """
local creada = redis.call('SET', KEYS[1], 0, 'NX', 'EX', ARGV[1])
return {creada and 1 or 0, redis.call('INCR', KEYS[1])}
"""
_INCREMENTAR_SI_EXISTE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
return false
"""


FALTA = object()  # fetched in the round trip, and not in Redis


_FALLOS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


# Called when a cache client sees its cache answer again after a failure (hub.cache.coherencia bumps
# the database's cache generation: what the cache kept meanwhile is not trusted).
AL_VOLVER: list[Callable[[], None]] = []
# Called with the server's run_id on each new Redis connection (hub.cache.coherencia puts it in the
# seal): a restarted Redis, maybe loaded from an old snapshot, is another cache.
AL_CONECTAR: list[Callable[[str], None]] = []


def _al_conectar(conexion: Any) -> None:
    """redis-py's `redis_connect_func`: the usual handshake, then the server's run_id.

    redis-py reconnects a pooled connection the server closed without raising anything (its pool
    checks the socket before each command), so the breaker never sees a restart: its run_id does.
    """
    conexion.on_connect()
    try:
        conexion.send_command("INFO", "server")
        info = conexion.read_response()
    except redis.exceptions.ResponseError:  # INFO renamed or forbidden: no restart detection
        logger.warning("Redis no responde INFO: no se detecta un reinicio por su run_id")
        return
    texto = info.decode() if isinstance(info, bytes) else str(info)
    run_id = next((ln[7:].strip() for ln in texto.splitlines() if ln.startswith("run_id:")), "")
    for avisar in AL_CONECTAR:
        avisar(run_id)


class CachePausada(redis.exceptions.ConnectionError):
    """The cache failed moments ago and is being left alone for a few seconds."""


class Pausa:
    """A cache client's memory of its last failure (per process: each one finds out alone)."""

    def __init__(self) -> None:
        self.hasta = 0.0  # time.monotonic() until which the cache is skipped
        self.ultimo_error = ""

    def comprobar(self) -> None:
        if time.monotonic() < self.hasta:
            metricas.omitida_cache()
            raise CachePausada("caché en pausa tras un fallo reciente")

    def fallo(self, exc: Exception) -> None:
        segundos = settings.HUB_CACHE_PAUSA
        metricas.fallo_cache(exc, pausa=bool(segundos) and time.monotonic() >= self.hasta)
        if segundos and time.monotonic() >= self.hasta:
            logger.error(
                "caché no disponible (%s): se omite durante %s s", type(exc).__name__, segundos
            )
        self.hasta = time.monotonic() + segundos
        self.ultimo_error = type(exc).__name__

    def volvio(self) -> None:
        """The cache answered after a failure: invalidations may have been lost meanwhile."""
        self.hasta = 0.0
        logger.warning("caché disponible de nuevo")
        for avisar in AL_VOLVER:
            avisar()

    def restante(self) -> float:
        """Seconds left in the pause (0 when the cache is in use)."""
        return max(0.0, self.hasta - time.monotonic())

    @contextmanager
    def vigilar(self) -> Iterator[None]:
        """Refuse while paused; a connection failure or timeout inside starts a pause."""
        self.comprobar()
        try:
            yield
        except CachePausada:  # a ConnectionError too, but not a new failure
            raise
        except _FALLOS as exc:
            self.fallo(exc)
            raise
        if self.hasta:
            self.volvio()


class TuboVigilado(redis.client.Pipeline):
    """A pipeline that respects and feeds its client's pause."""

    pausa: Pausa

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        with self.pausa.vigilar():
            return super().execute(raise_on_error)


class RedisVigilado(redis.Redis):
    """redis.Redis whose every command respects and feeds the pause of its cache client."""

    pausa: Pausa

    def execute_command(self, *args: Any, **options: Any) -> Any:
        with self.pausa.vigilar():
            return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> TuboVigilado:
        tubo = TuboVigilado(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        tubo.pausa = self.pausa
        return tubo


class ClienteRedis(RedisCacheClient):
    """Django's Redis client with one `RedisVigilado` per server (built here from the server's
    URL and the cache's OPTIONS, with redis-py's public API), an atomic `incr`, and a request's
    batch in one pipeline (`en_un_viaje`)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        serializador = options.pop("serializer", None)
        if isinstance(serializador, str):
            serializador = import_string(serializador)
        self.serializador = (
            serializador() if callable(serializador) else serializador or RedisSerializer()
        )
        clase = options.pop("pool_class", None) or redis.ConnectionPool
        if isinstance(clase, str):
            clase = import_string(clase)
        if isinstance(options.get("parser_class"), str):
            options["parser_class"] = import_string(options["parser_class"])
        options.setdefault("redis_connect_func", _al_conectar)
        self.pausa = Pausa()
        self.pools = [clase.from_url(url, **options) for url in servers]
        self.clientes = [RedisVigilado(connection_pool=pool) for pool in self.pools]
        for cliente in self.clientes:
            cliente.pausa = self.pausa

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's rule: writes to the first server, reads to any replica after it.
        if write or len(self.clientes) == 1:
            return self.clientes[0]
        return self.clientes[random.randint(1, len(self.clientes) - 1)]  # noqa: S311

    def desconectar(self) -> None:
        """Close every pooled socket (Django's close() leaves them open)."""
        for pool in self.pools:
            pool.disconnect()

    def incr(self, key: str, delta: int) -> int:
        # EVAL, not a registered script's EVALSHA: on a Redis that has not loaded it yet, that
        # costs three round trips (EVALSHA refused, SCRIPT LOAD, EVALSHA again).
        valor = self.get_client(key, write=True).eval(_INCREMENTAR_SI_EXISTE, 1, key, delta)
        if valor is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(valor)

    def en_un_viaje(
        self,
        conteos: dict[str, int],
        lecturas: list[str],
        agregados: list[tuple[str, Any, int]],
    ) -> tuple[dict[str, int], list[Any], list[bool]]:
        """Counts, reads and add()s in one pipeline: (counts, values in order, added in order).

        A count is django-ratelimit's: `add(key, 1)`, and `incr(key)` when the add finds the key.
        `_CONTAR` makes it in one atomic step that leaves the same value and expiry (SET NX with
        0, then INCR). A script, not MULTI/EXEC around the two commands: redis-py's transaction
        cost 150 to 250 more Python calls per request (measured, docs/decisiones.md, issue 24
        item 2). EVAL, not EVALSHA: a pipeline with registered scripts first asks SCRIPT EXISTS.
        A value missing from Redis comes back as `FALTA`.
        """
        tubo = self.get_client(write=True).pipeline(transaction=False)
        for key, ttl in conteos.items():
            tubo.eval(_CONTAR, 1, key, ttl)
        if lecturas:
            tubo.mget(lecturas)
        for key, valor, ttl in agregados:
            tubo.set(key, self.serializador.dumps(valor), ex=ttl, nx=True)
        respuestas = iter(tubo.execute())
        contadas = {key: int(next(respuestas)[1]) for key in conteos}
        valores = []
        if lecturas:
            valores = [FALTA if v is None else self.serializador.loads(v) for v in next(respuestas)]
        return contadas, valores, [bool(next(respuestas)) for _ in agregados]


class CacheRedis(BaseCache):
    """Django's Redis cache backend with `ClienteRedis` (see the module's docstring).

    Django's `RedisCache`, method by method, on `BaseCache` (Django's base for a custom backend):
    `RedisCache` builds its client in a private property, which a subclass would have to replace.
    Keys are made with `make_key` alone: Memcached's key rules (length, control characters) do
    not apply to Redis, and checking every character of every key cost more than a tenth of the
    brand's answer.
    """

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.servidores = re.split("[;,]", server) if isinstance(server, str) else list(server)
        self.opciones = dict(params.get("OPTIONS", {}))

    @cached_property
    def cliente(self) -> ClienteRedis:
        """This cache's Redis client (its pause, its pools, its batch), built on first use."""
        return ClienteRedis(self.servidores, **self.opciones)

    def get_backend_timeout(self, timeout: Any = DEFAULT_TIMEOUT) -> int | None:
        if timeout == DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        # None keeps the key for ever; zero or less deletes it (Django's rule).
        return None if timeout is None else max(0, int(timeout))

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        hecha = self.make_key(key, version=version)
        return self.cliente.add(hecha, value, self.get_backend_timeout(timeout))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self.cliente.get(self.make_key(key, version=version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        hecha = self.make_key(key, version=version)
        self.cliente.set(hecha, value, self.get_backend_timeout(timeout))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        hecha = self.make_key(key, version=version)
        return self.cliente.touch(hecha, self.get_backend_timeout(timeout))

    def delete(self, key: Any, version: Any = None) -> bool:
        return self.cliente.delete(self.make_key(key, version=version))

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        hechas = {self.make_key(key, version=version): key for key in keys}
        return {hechas[k]: v for k, v in self.cliente.get_many(list(hechas)).items()}

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self.cliente.has_key(self.make_key(key, version=version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self.cliente.incr(self.make_key(key, version=version), delta)

    def set_many(self, data: dict, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list:
        if data:
            hechos = {self.make_key(k, version=version): v for k, v in data.items()}
            self.cliente.set_many(hechos, self.get_backend_timeout(timeout))
        return []

    def delete_many(self, keys: Any, version: Any = None) -> None:
        if keys:
            self.cliente.delete_many([self.make_key(k, version=version) for k in keys])

    def clear(self) -> bool:
        return self.cliente.clear()

    def en_un_viaje(
        self,
        conteos: dict[str, int],
        lecturas: list[str],
        agregados: list[tuple[str, Any, int]],
    ) -> tuple[dict[str, int], dict[str, Any], dict[str, bool]]:
        """One request's batch (hub.cache.lote): django-ratelimit counts (key -> expiry), reads
        and add()s in one round trip: (counts, values, added) under the keys as given."""
        hecha = self.make_key
        cuentas, valores, agregadas = self.cliente.en_un_viaje(
            {hecha(k): ttl for k, ttl in conteos.items()},
            [hecha(k) for k in lecturas],
            [(hecha(k), v, ttl) for k, v, ttl in agregados],
        )
        return (
            {k: cuentas[hecha(k)] for k in conteos},
            dict(zip(lecturas, valores, strict=True)),
            {k: a for (k, _, _), a in zip(agregados, agregadas, strict=True)},
        )


class CacheArchivo(DjangoCache):
    """diskcache's Django backend (see the module's docstring), without endless retries.

    diskcache retries a write whose transaction cannot begin forever (its `retry=True`, over a
    10 ms SQLite busy timeout): an unwritable cache folder spun every request at full CPU. Here
    SQLite itself waits up to `ESPERA_S` for another process's write to end (contention between
    workers, as before), and a write that still cannot begin fails at once (diskcache answers
    False or None), and callers act as for a dead cache (docs/contrato.md, «Límites»).
    """

    ESPERA_S = 2.0

    def __init__(self, directory: str, params: dict[str, Any]) -> None:
        super().__init__(directory, {"DATABASE_TIMEOUT": self.ESPERA_S, **params})

    def add(self, *args: Any, retry: bool = False, **kwargs: Any) -> bool:
        return super().add(*args, retry=retry, **kwargs)

    def set(self, *args: Any, retry: bool = False, **kwargs: Any) -> bool:
        return super().set(*args, retry=retry, **kwargs)

    def delete(self, *args: Any, retry: bool = False, **kwargs: Any) -> bool:
        return super().delete(*args, retry=retry, **kwargs)

    def incr(self, *args: Any, retry: bool = False, **kwargs: Any) -> int:
        return super().incr(*args, retry=retry, **kwargs)

    def touch(self, *args: Any, retry: bool = False, **kwargs: Any) -> bool:
        return super().touch(*args, retry=retry, **kwargs)


def describir() -> dict[str, Any]:
    """Which shared cache is in use, for /salud/ and `check --deploy`."""
    cache = caches["default"]
    if isinstance(cache, CacheRedis):
        pausa = cache.cliente.pausa
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
