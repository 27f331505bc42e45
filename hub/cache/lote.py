"""The batch: what a request declares it will read and count, fetched in one Redis round trip.

A view declares at its definition what it will ask of the cache (`declarar`: a class attribute
of a DRF view, or the `@declara(...)` decorator of a plain view function); the global-limit
middleware adds its own part and, in `process_view`, sends the whole `Pedido` as one pipeline
(`hub.cache.almacenes.CacheRedis.en_un_viaje`). What comes back is the request's `Lote`: the
readers that asked for a key (`hub.cache.versionado.leer_versionado`, `hub.http.limites.contar`,
`apps.mcp.services.toca_anotar`) take their answer from it, once, and ask the cache for anything
else. The cache backend itself has no mode: each of its methods does what Django documents.

A count is django-ratelimit's, made here without calling it: `llave_de_limite` computes the key
`get_usage` would count under (the rule copied from the library, pinned by
tests/hub/test_llamadas_de_django_ratelimit.py) and the pipeline makes the same add-then-incr in
one atomic step. This is the one documented place the library is bypassed, for speed
(docs/cache.md). A limit's value is part of its key, and the values live in the cache being read:
the batch counts under `limite_conjeturado`, the last value this process used for that group.
When the guess is wrong the request's own count asks the cache (one more round trip), and the
answer is never wrong.

Only the Redis backend batches; with the file cache of one host every call answers on its own.
"""

from __future__ import annotations

import contextvars
import hashlib
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from django_ratelimit import core as ratelimit_core

from hub.cache import almacenes

FALTA = almacenes.FALTA  # asked in the round trip, and not in the cache

# django-ratelimit's keys start with this (its documented RATELIMIT_CACHE_PREFIX, default "rl:").
PREFIJO_LIMITES = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")

NO_PEDIDA = object()  # not in this request's batch: ask the cache


def ahora() -> int:
    """The rate limiter's clock: django-ratelimit's own (its module's `time`), so that a window
    here is always the library's (the tests stand that clock still)."""
    return int(ratelimit_core.time.time())


def expiracion(segundos: int) -> int:
    """How long a window's key lives: the window and the library's EXPIRATION_FUDGE."""
    return segundos + ratelimit_core.EXPIRATION_FUDGE


def ventana_de(valor: str, segundos: int) -> int:
    """django_ratelimit.core._get_window: the end of the window `valor` counts in now."""
    ahora_ = ahora()
    if segundos == 1:
        return ahora_
    fin = ahora_ - (ahora_ % segundos) + (zlib.crc32(valor.encode("utf-8")) % segundos)
    return fin + segundos if fin < ahora_ else fin


def llave_de_limite(grupo: str, valor: str, limite: int, segundos: int, ventana: int) -> str:
    """django_ratelimit.core._make_cache_key for `get_usage(rate=f"{limite}/{segundos}s")` with
    its default `method=ALL` and RATELIMIT_HASH_ALGORITHM."""
    partes = [grupo, f"{limite}/{segundos}s", valor, str(ventana), ""]
    return PREFIJO_LIMITES + hashlib.sha256("".join(partes).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Conteo:
    """One hit a request will count: django-ratelimit's group, key value, limit and window."""

    grupo: str
    valor: str
    limite: int
    segundos: int

    def llave(self) -> tuple[str, int]:
        """(the cache key get_usage counts under now, the window's end)."""
        ventana = ventana_de(self.valor, self.segundos)
        return llave_de_limite(self.grupo, self.valor, self.limite, self.segundos, ventana), ventana


@dataclass
class Pedido:
    """What one request declares it will ask of the cache."""

    lecturas: list[str] = field(default_factory=list)
    conteos: list[Conteo] = field(default_factory=list)
    agregados: list[tuple[str, Any, int]] = field(default_factory=list)

    def leer(self, claves: list[str]) -> None:
        """Keys the request will read (get or get_many)."""
        self.lecturas.extend(claves)

    def contar(self, grupo: str, valor: str, limite: int | None, segundos: int) -> None:
        """A hit the request will count (nothing when no limit is guessed for the group yet)."""
        if limite is not None:
            self.conteos.append(Conteo(grupo, valor, limite, segundos))

    def agregar(self, clave: str, valor: Any, ttl: int) -> None:
        """A `cache.add(clave, valor, ttl)` the request may make (e.g. a testigo de uso)."""
        self.agregados.append((clave, valor, ttl))


@dataclass
class Lote:
    """A request's answers from its round trip, each taken once."""

    valores: dict[str, Any] = field(default_factory=dict)  # key -> value, or FALTA
    cuentas: dict[str, int] = field(default_factory=dict)  # django-ratelimit key -> count
    agregadas: dict[str, bool] = field(default_factory=dict)  # key -> whether add() created it


_actual: contextvars.ContextVar[Lote | None] = contextvars.ContextVar("hub_lote", default=None)

# The last limit value this process counted each group under: the guess a batch counts with.
_limites_vistos: dict[str, int] = {}


def limite_conjeturado(grupo: str) -> int | None:
    """A guess of the group's limit (the last value this process used), or None."""
    return _limites_vistos.get(grupo)


def anotar_limite(grupo: str, limite: int) -> None:
    """The limit a count was just made under: the next batch's guess."""
    _limites_vistos[grupo] = limite


def activo() -> bool:
    """Whether the current request has a batch."""
    return _actual.get() is not None


def leido(clave: str) -> Any:
    """The value the batch fetched for `clave` (`FALTA`: not in the cache), or NO_PEDIDA."""
    lote = _actual.get()
    return NO_PEDIDA if lote is None else lote.valores.get(clave, NO_PEDIDA)


def contado(llave: str) -> int | None:
    """The count the batch made under django-ratelimit's `llave` (taken once), or None."""
    lote = _actual.get()
    return None if lote is None else lote.cuentas.pop(llave, None)


def agregado(clave: str) -> bool | None:
    """Whether the batch's add() of `clave` created it (taken once), or None if not asked."""
    lote = _actual.get()
    return None if lote is None else lote.agregadas.pop(clave, None)


def olvidar(clave: str) -> None:
    """A write within the request: its later reads of `clave` go to the cache."""
    lote = _actual.get()
    if lote is not None:
        lote.valores.pop(clave, None)
        lote.agregadas.pop(clave, None)


def hacer(pedido: Pedido) -> Lote | None:
    """Send the request's `Pedido` as one round trip (Redis only), or None (nothing to send,
    another backend, or a dead or paused cache: every call then answers, or fails, on its own)."""
    cache = caches["default"]
    en_un_viaje = getattr(cache, "en_un_viaje", None)
    if en_un_viaje is None or not (pedido.lecturas or pedido.conteos or pedido.agregados):
        return None
    conteos = {}
    for conteo in pedido.conteos:
        llave, _ = conteo.llave()
        conteos[llave] = expiracion(conteo.segundos)
    try:
        cuentas, valores, agregadas = en_un_viaje(conteos, pedido.lecturas, pedido.agregados)
    except Exception:  # each call below finds out (and logs) alone
        return None
    return Lote(valores=valores, cuentas=cuentas, agregadas=agregadas)


@contextmanager
def de_la_peticion() -> Iterator[None]:
    """A request's scope for its batch (`poner` puts it there; nothing outlives the block)."""
    token = _actual.set(None)
    try:
        yield
    finally:
        _actual.reset(token)


def poner(lote: Lote | None) -> None:
    """The request's batch, within `de_la_peticion`."""
    _actual.set(lote)


def declara(funcion: Callable[[HttpRequest, dict[str, Any], Pedido], None]):
    """Decorator of a plain view: `funcion(request, kwargs, pedido)` declares its batch."""

    def decorar(vista):
        vista.declarar = funcion
        return vista

    return decorar


def declaracion(vista: Any) -> Callable[[HttpRequest, dict[str, Any], Pedido], None] | None:
    """The `declarar` of the view `process_view` was given (its class's, for a class view)."""
    return getattr(getattr(vista, "view_class", vista), "declarar", None)
