"""The shared caches: Redis (production, several hosts) and a file store for one host.

Both hold what every process must agree on: the rate-limit counts, the singletons (limits,
assistant settings, the write switch) and the published brand.

`CacheRedis` is Django's Redis backend with these changes:
- one `redis.Redis` per connection pool, not a new one per operation (redis-py's constructor
  fills a table of ~170 response callbacks: ~0.1 ms of CPU each time);
- `incr()` is one atomic step (INCRBY only if the key exists): Django's sends EXISTS, then
  INCRBY, and a key that expires between the two comes back from INCRBY with no expiry (a count
  Redis never removes);
- after a connection failure or timeout the cache is skipped for HUB_CACHE_PAUSA seconds: a hung
  Redis (stopped, not refusing) would otherwise make every request wait its socket timeout on
  every cache call; callers then act as for a dead cache (docs/contrato.md, «Límites»);
- `una_ida`: a request's cache work in one round trip (hub.cache.precarga).

Its `add` and `incr` each keep Django's contract on their own, and django-ratelimit counts
through them: an add, then an incr when the window's key exists (the sequence `una_ida` serves;
tests/hub/test_llamadas_de_django_ratelimit.py pins it against the installed version).

`CacheArchivo` (no REDIS_URL) is diskcache's Django backend: SQLite files under var/cache that
every process of the host shares, with atomic `add` and `incr`. Several gunicorn workers count
the same limits and see the same brand and settings; several hosts need Redis.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from diskcache import DjangoCache
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from hub.observabilidad import metricas

logger = logging.getLogger(__name__)

# django-ratelimit's keys start with this (its documented RATELIMIT_CACHE_PREFIX, default "rl:").
PREFIJO_LIMITES = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")

# One django-ratelimit count (see ClienteRedis.ida): created with the expiry if new, then counted.
_CONTAR = """
local creada = redis.call('SET', KEYS[1], 0, 'NX', 'EX', ARGV[1])
return {creada and 1 or 0, redis.call('INCR', KEYS[1])}
"""
_INCREMENTAR_SI_EXISTE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
return false
"""


FALTA = object()  # fetched in the round trip, and not in Redis
_NO_LEIDA = object()


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
    """One `RedisVigilado` per connection pool, an atomic `incr`, and a request's round trip."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pool_options.setdefault("redis_connect_func", _al_conectar)
        self._client = RedisVigilado
        self.pausa = Pausa()
        self._clientes: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        cliente = self._clientes.get(id(pool))
        if cliente is None:
            cliente = self._client(connection_pool=pool)
            cliente.pausa = self.pausa
            self._clientes[id(pool)] = cliente
        return cliente

    def incr(self, key: str, delta: int) -> int:
        # EVAL, not a registered script's EVALSHA: on a Redis that has not loaded it yet, that
        # costs three round trips (EVALSHA refused, SCRIPT LOAD, EVALSHA again).
        valor = self.get_client(key, write=True).eval(_INCREMENTAR_SI_EXISTE, 1, key, delta)
        if valor is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(valor)

    def ida(
        self,
        conteos: dict[str, int],
        lecturas: list[str],
        agregados: list[tuple[str, Any, int]],
    ) -> tuple[dict[str, tuple[bool, int]], dict[str, Any], dict[str, bool]]:
        """Counts, reads and add()s in one pipeline: (counts, values, added).

        A count is django-ratelimit's: `add(key, 1)`, and `incr(key)` when the add finds the key.
        `_CONTAR` makes it in one atomic step that leaves the same value and expiry (SET NX with
        0, then INCR) and answers (created, value after it). A script, not MULTI/EXEC around the
        two commands: redis-py's transaction cost 150 to 250 more Python calls per request
        (measured, docs/decisiones.md, issue 24 item 2). EVAL, not EVALSHA: a pipeline with
        registered scripts first asks SCRIPT EXISTS.
        """
        tubo = self.get_client(write=True).pipeline(transaction=False)
        for key, ttl in conteos.items():
            tubo.eval(_CONTAR, 1, key, ttl)
        if lecturas:
            tubo.mget(lecturas)
        for key, valor, ttl in agregados:
            tubo.set(key, self._serializer.dumps(valor), ex=ttl, nx=True)
        respuestas = iter(tubo.execute())
        contadas = {}
        for key in conteos:
            creada, valor = next(respuestas)
            contadas[key] = (bool(creada), int(valor))
        valores = {}
        if lecturas:
            crudos = next(respuestas)
            valores = {
                k: (FALTA if v is None else self._serializer.loads(v))
                for k, v in zip(lecturas, crudos, strict=True)
            }
        agregadas = {key: bool(next(respuestas)) for key, _, _ in agregados}
        return contadas, valores, agregadas


class _Ida:
    """One request's round trip: recording what it will count, then serving what was fetched."""

    def __init__(self) -> None:
        self.grabando = True
        self.conteos: dict[str, int] = {}  # rate-limit key -> expiry, from django-ratelimit's add()
        self.contadas: dict[str, tuple[bool, int]] = {}  # key -> (created, count), for its add()
        self.por_incrementar: dict[str, int] = {}  # key -> count, for the incr() after its add()
        self.valores: dict[str, Any] = {}
        self.agregadas: dict[str, bool] = {}

    def olvidar(self, clave: str) -> None:
        """A write within the request: later calls on that key go to Redis."""
        for servidas in (self.contadas, self.por_incrementar, self.valores, self.agregadas):
            servidas.pop(clave, None)


class CacheRedis(RedisCache):
    """Django's Redis cache with `ClienteRedis` (see the module's docstring), and `una_ida`.

    `una_ida(lecturas, contar, agregados)` makes a request's cache work one round trip:
    `contar()` runs the request's rate-limit counts through django-ratelimit once in "recording"
    mode (each `add(key, 1)` of a rate-limit key is noted and answered False, its `incr()` 0;
    nothing is sent), then one pipeline makes those counts, reads `lecturas` and add()s
    `agregados`. Until `terminar_ida()`, each such call made for real (the counts' add and incr,
    the reads, the adds) is answered once from that round trip; anything else, a key not
    predicted, or a key written meanwhile goes to Redis: a wrong guess costs a round trip, never
    a wrong answer. The backend is per thread (Django's cache handler), and so is this state.
    """

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ClienteRedis
        self._ida: _Ida | None = None

    def make_and_validate_key(self, key: Any, version: Any = None) -> str:
        # Memcached's key rules (length, control characters) do not apply to Redis, and checking
        # every character of every key cost more than a tenth of the brand's answer.
        return self.make_key(key, version=version)

    def una_ida(
        self,
        lecturas: list[str],
        contar: Callable[[], None],
        agregados: list[tuple[str, Any, int]],
    ) -> None:
        ida = self._ida = _Ida()
        try:
            contar()
        finally:
            ida.grabando = False
        hechas = [self.make_and_validate_key(k) for k in lecturas]
        puestos = [(self.make_and_validate_key(k), v, ttl) for k, v, ttl in agregados]
        ida.contadas, ida.valores, ida.agregadas = self._cache.ida(ida.conteos, hechas, puestos)

    def terminar_ida(self) -> None:
        self._ida = None

    def _servida(self) -> _Ida | None:
        ida = self._ida
        return ida if ida is not None and not ida.grabando else None

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        ida = self._ida
        if ida is not None:
            clave = self.make_and_validate_key(key, version=version)
            if ida.grabando:
                if value == 1 and isinstance(key, str) and key.startswith(PREFIJO_LIMITES):
                    ida.conteos[clave] = self.get_backend_timeout(timeout)
                    return False
            elif value == 1 and clave in ida.contadas:
                creada, valor = ida.contadas.pop(clave)
                if not creada:
                    ida.por_incrementar[clave] = valor
                return creada
            elif clave in ida.agregadas:
                return ida.agregadas.pop(clave)
            else:
                ida.olvidar(clave)
        return super().add(key, value, timeout, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        ida = self._ida
        if ida is not None:
            if ida.grabando:
                if isinstance(key, str) and key.startswith(PREFIJO_LIMITES):
                    return 0  # recording: the count is made in the round trip
            else:
                clave = self.make_and_validate_key(key, version=version)
                if delta == 1 and clave in ida.por_incrementar:
                    return ida.por_incrementar.pop(clave)
                ida.olvidar(clave)
        return super().incr(key, delta, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        ida = self._servida()
        if ida is not None:
            valor = ida.valores.get(self.make_and_validate_key(key, version=version), _NO_LEIDA)
            if valor is not _NO_LEIDA:
                return default if valor is FALTA else valor
        return super().get(key, default, version)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        ida = self._servida()
        if ida is not None:
            hechas = {k: self.make_and_validate_key(k, version=version) for k in keys}
            if all(h in ida.valores for h in hechas.values()):
                return {k: ida.valores[h] for k, h in hechas.items() if ida.valores[h] is not FALTA}
        return super().get_many(keys, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        if self._ida is not None:
            self._ida.olvidar(self.make_and_validate_key(key, version=version))
        return super().set(key, value, timeout, version)

    def delete(self, key: Any, version: Any = None) -> bool:
        if self._ida is not None:
            self._ida.olvidar(self.make_and_validate_key(key, version=version))
        return super().delete(key, version)


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
