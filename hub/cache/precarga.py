"""One Redis round trip per request: what a request will read and count, fetched together.

A request reads the limits' singleton, counts the global limit and its endpoint's limit, and
reads whatever its view needs (the brand, a verification, the assistant's settings and the
caller's identity). `Plan` gathers those keys before the request is served; the view declares
its part with a `precargar(request, kwargs, plan)` callable (a class attribute of a DRF view, an
attribute of a plain view function). The counts are guessed with this process's last values of
the singletons and identities: a wrong guess costs a second round trip, never a wrong count
(see hub.cache.almacenes.CacheRedis.una_ida). Only the Redis backend does this; the file cache of
one host
answers each call on its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest
from django.urls import Resolver404, resolve

from hub.cache.almacenes import CacheRedis
from hub.cache.singleton import prediccion


@dataclass
class Plan:
    """What one request will ask of the cache."""

    lecturas: list[str] = field(default_factory=list)
    conteos: list[Callable[[], Any]] = field(default_factory=list)
    agregados: list[tuple[str, Any, int]] = field(default_factory=list)

    def leer(self, claves: list[str]) -> None:
        """Keys the request will read (get or get_many)."""
        self.lecturas.extend(claves)

    def contar(self, funcion: Callable[[], Any]) -> None:
        """The very call that will count the request (e.g. `hub.http.limites.aplicar`): run once
        while recording, so that the keys are django-ratelimit's own."""
        self.conteos.append(funcion)

    def agregar(self, clave: str, valor: Any, ttl: int) -> None:
        """A `cache.add(clave, valor, ttl)` the request may make (e.g. a testigo de uso: a key whose
        presence says a credential's last use was written within the minute)."""
        self.agregados.append((clave, valor, ttl))


def _vista(ruta: str) -> tuple[Any, dict[str, Any]]:
    """The view class (or function) and keyword arguments of a path."""
    # The same few paths come again and again, and a route's view never changes in a process:
    # each is resolved once (a long path, which a client may invent, is not kept).
    return _vista_guardada(ruta) if len(ruta) <= 200 else _resolver(ruta)


@functools.lru_cache(maxsize=1024)
def _vista_guardada(ruta: str) -> tuple[Any, dict[str, Any]]:
    return _resolver(ruta)


def _resolver(ruta: str) -> tuple[Any, dict[str, Any]]:
    try:
        coincidencia = resolve(ruta)
    except Resolver404:
        return None, {}
    return getattr(coincidencia.func, "cls", coincidencia.func), coincidencia.kwargs


@contextmanager
def una_ida(request: HttpRequest, comunes: Callable[[Plan], Any]) -> Iterator[None]:
    """Serve the block's cache calls from one round trip (Redis only), planned by `comunes` and
    the view's `precargar`."""
    cache = caches["default"]
    if not isinstance(cache, CacheRedis):
        yield
        return
    plan = Plan()
    comunes(plan)
    vista, kwargs = _vista(request.path_info)
    precargar = getattr(vista, "precargar", None)
    if precargar is not None:
        precargar(request, kwargs, plan)

    def contar_todo() -> None:
        for conteo in plan.conteos:
            conteo()

    try:
        with prediccion():
            cache.una_ida(plan.lecturas, contar_todo, plan.agregados)
    except Exception:  # a dead or paused cache: each call below finds out and decides
        cache.terminar_ida()
    try:
        yield
    finally:
        cache.terminar_ida()
