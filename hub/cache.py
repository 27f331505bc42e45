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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from diskcache import DjangoCache
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from hub import metricas

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


FALTA = object()  # fetched in the round trip, and not in Redis
_NO_LEIDA = object()


_FALLOS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


# Called when a cache client sees its cache answer again after a failure (hub.coherencia bumps
# the database's cache generation: what the cache kept meanwhile is not trusted).
AL_VOLVER: list[Callable[[], None]] = []


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
    """One `RedisVigilado` per connection pool, and the one-round-trip counting of rate limits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._client = RedisVigilado
        self.pausa = Pausa()
        self._clientes: dict[int, Any] = {}
        self._scripts: dict[int, tuple[Any, Any]] = {}
        # The last count made on this thread: django-ratelimit asks incr() for it next.
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

    def recordar(self, key: str, cuenta: int) -> bool:
        """Keep a count for the incr() that follows on the same key; True if it was the first."""
        self._ultima.par = (key, cuenta)
        return cuenta == 1

    def sumar(self, key: str, timeout: int) -> bool:
        """Count one hit on a rate-limit key: True when this created it (its first hit)."""
        cliente = self.get_client(key, write=True)
        return self.recordar(key, int(self._script(cliente, 0)(keys=[key], args=[timeout])))

    def incr(self, key: str, delta: int) -> int:
        par = getattr(self._ultima, "par", None)
        if par is not None and par[0] == key and delta == 1:
            self._ultima.par = None
            return par[1]  # already counted, in the same round trip
        cliente = self.get_client(key, write=True)
        valor = self._script(cliente, 1)(keys=[key], args=[delta])
        if valor is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(valor)

    def ida(
        self,
        cuentas: dict[str, int],
        lecturas: list[str],
        marcas: list[tuple[str, Any, int]],
    ) -> tuple[dict[str, int], dict[str, Any], dict[str, bool]]:
        """Counts, reads and add()s of made keys in one pipeline: (counts, values, added)."""
        cliente = self.get_client(write=True)
        tubo = cliente.pipeline(transaction=False)
        for key, ttl in cuentas.items():
            # EVAL, not the registered script: a pipeline with scripts first asks SCRIPT EXISTS.
            tubo.eval(_SUMAR, 1, key, ttl)
        if lecturas:
            tubo.mget(lecturas)
        for key, valor, ttl in marcas:
            tubo.set(key, self._serializer.dumps(valor), ex=ttl, nx=True)
        respuestas = iter(tubo.execute())
        sumas = {key: int(next(respuestas)) for key in cuentas}
        valores = {}
        if lecturas:
            crudos = next(respuestas)
            valores = {
                k: (FALTA if v is None else self._serializer.loads(v))
                for k, v in zip(lecturas, crudos, strict=True)
            }
        puestas = {key: bool(next(respuestas)) for key, _, _ in marcas}
        return sumas, valores, puestas


class _Ida:
    """One request's round trip: recording what it will count, then serving what was fetched."""

    def __init__(self) -> None:
        self.grabando = True
        self.cuentas: dict[str, int] = {}  # rate-limit key -> expiry, as django-ratelimit asked
        self.ultima = ""  # the key of the count being recorded
        self.usos: dict[tuple, tuple[str, int]] = {}  # a count's parameters -> (key, retry in)
        self.sumas: dict[str, int] = {}
        self.valores: dict[str, Any] = {}
        self.puestas: dict[str, bool] = {}

    def olvidar(self, clave: str) -> None:
        """A write within the request: later reads of that key go to Redis."""
        self.valores.pop(clave, None)
        self.puestas.pop(clave, None)


class CacheRedis(RedisCache):
    """Django's Redis cache with `ClienteRedis` (see the module's docstring), and `una_ida`.

    `una_ida(lecturas, contar, marcas)` makes a request's cache work one round trip: `contar()`
    runs the request's rate-limit counts through django-ratelimit once in "recording" mode
    (the keys it would add are noted, nothing is sent), then one pipeline counts them, reads
    `lecturas` and add()s `marcas`. Until `terminar_ida()`, the same calls made for real are
    answered from that pipeline (a count whose key was not predicted, or a key not fetched,
    still goes to Redis: a wrong guess costs a round trip, never a wrong answer). The backend is
    per thread (Django's cache handler), and so is this state.
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
        marcas: list[tuple[str, Any, int]],
    ) -> None:
        ida = self._ida = _Ida()
        try:
            contar()
        finally:
            ida.grabando = False
        hechas = [self.make_and_validate_key(k) for k in lecturas]
        puestas = [(self.make_and_validate_key(k), v, ttl) for k, v, ttl in marcas]
        ida.sumas, ida.valores, ida.puestas = self._cache.ida(ida.cuentas, hechas, puestas)

    def terminar_ida(self) -> None:
        self._ida = None

    def anotar_cuenta(self, parametros: tuple, reintentar_en: int) -> None:
        """While recording: the count of `parametros` (hub.limites.contar) is the key just added."""
        ida = self._ida
        if ida is not None and ida.grabando and ida.ultima:
            ida.usos[parametros] = (ida.ultima, reintentar_en)

    def cuenta_hecha(self, parametros: tuple) -> tuple[int, int] | None:
        """(count, retry in) of a count the round trip already made, or None: hub.limites.contar
        then needs no second pass through django-ratelimit."""
        ida = self._servida()
        if ida is None or parametros not in ida.usos:
            return None
        clave, reintentar_en = ida.usos.pop(parametros)
        if clave not in ida.sumas:
            return None
        return ida.sumas.pop(clave), reintentar_en

    def _servida(self) -> _Ida | None:
        ida = self._ida
        return ida if ida is not None and not ida.grabando else None

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        clave = self.make_and_validate_key(key, version=version)
        ida = self._ida
        if isinstance(key, str) and key.startswith(PREFIJO_LIMITES) and value == 1:
            expira = self.get_backend_timeout(timeout)
            if ida is not None and ida.grabando:
                ida.cuentas[clave] = expira
                ida.ultima = clave
                return False
            if ida is not None and clave in ida.sumas:
                return self._cache.recordar(clave, ida.sumas.pop(clave))
            return self._cache.sumar(clave, expira)
        if ida is not None and not ida.grabando:
            if clave in ida.puestas:
                return ida.puestas.pop(clave)
            ida.olvidar(clave)
        return super().add(key, value, timeout, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        if self._ida is not None and self._ida.grabando:
            return 0  # recording: the answer is not used
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
    False or None), and callers act as for a dead cache (DESIGN.md section 5).
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
