"""Rate limits: one module decides and counts, in the shared cache (Redis in production)."""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse

from hub import respuestas
from hub.ip import ip_cliente

logger = logging.getLogger(__name__)


class CacheNoDisponible(Exception):
    """The shared cache could not count; the caller decides whether to fail open or closed."""


@dataclass(frozen=True)
class Uso:
    """One window's count after this request."""

    limite: int
    usados: int
    reintentar_en: int  # seconds until the window resets, at least 1

    @property
    def excedido(self) -> bool:
        return self.usados > self.limite

    @property
    def restante(self) -> int:
        return max(0, self.limite - self.usados)


def _sumar(llave: str, ventana: int, incrementar: bool) -> int:
    """The window's count after adding this hit (or just read it): one round trip to Redis."""
    cache = caches["default"]
    if not isinstance(cache, RedisCache):  # the embedded default (local memory)
        if not incrementar:
            return cache.get(llave, 0)
        cache.add(llave, 0, ventana + 5)
        return cache.incr(llave)
    clave = cache.make_and_validate_key(llave)
    cliente = cache._cache.get_client(clave, write=True)
    if not incrementar:
        valor = cliente.get(clave)
        return int(valor) if valor is not None else 0
    # SET NX + INCR in one pipeline: the key lives a little past its window, then expires.
    tubo = cliente.pipeline(transaction=False)
    tubo.set(clave, 0, ex=ventana + 5, nx=True)
    tubo.incr(clave)
    return int(tubo.execute()[1])


def contar(*, grupo: str, clave: str, limite: int, ventana: int, incrementar: bool = True) -> Uso:
    """Count one hit (or just read, with incrementar=False) in a fixed window of `ventana` seconds.

    Raises CacheNoDisponible when the cache cannot answer.
    """
    # Hashed: the key may hold an IP or a person's id, which need not be readable in Redis.
    resumen = hashlib.blake2b(f"{grupo}\0{clave}".encode(), digest_size=12)
    # Each key's windows are shifted by a stable offset taken from the same digest, so that the
    # clients of one endpoint do not all get their counts back on the same second.
    desfase = int.from_bytes(resumen.digest()[:4]) % ventana
    ahora = int(time.time())
    inicio = ahora - (ahora - desfase) % ventana
    try:
        usados = _sumar(f"rl:{resumen.hexdigest()}:{ventana}:{inicio}", ventana, incrementar)
    except Exception as exc:
        raise CacheNoDisponible(str(exc)) from exc
    return Uso(limite=limite, usados=usados, reintentar_en=max(1, inicio + ventana - ahora))


def cabeceras(uso: Uso) -> dict[str, str]:
    """X-RateLimit-Limit / X-RateLimit-Remaining for one endpoint limit."""
    return {"X-RateLimit-Limit": str(uso.limite), "X-RateLimit-Remaining": str(uso.restante)}


def error_429(uso: Uso, extra: dict[str, str] | None = None) -> respuestas.ErrorAPI:
    """429 RATE_LIMIT with Retry-After and the limit headers."""
    headers = {**cabeceras(uso), "Retry-After": str(uso.reintentar_en), **(extra or {})}
    return respuestas.ErrorAPI(429, headers=headers)


@dataclass(frozen=True)
class Regla:
    """One limit an endpoint applies: a group name, how many, per how many seconds, and a key."""

    grupo: str
    limite: Callable[[], int]
    ventana: int
    clave: Callable[[HttpRequest], str] = ip_cliente


def aplicar(request: HttpRequest, reglas: Sequence[Regla], *, falla_cerrado: bool) -> Uso | None:
    """Count the request against every rule; return the tightest use, raise 429 when exceeded.

    When the cache is down: fail open (None, logged) for reads, or 503 for fail-closed endpoints.
    """
    usos: list[Uso] = []
    for regla in reglas:
        try:
            usos.append(
                contar(
                    grupo=regla.grupo,
                    clave=regla.clave(request),
                    limite=regla.limite(),
                    ventana=regla.ventana,
                )
            )
        except CacheNoDisponible:
            if falla_cerrado:
                logger.error("cache no disponible: %s rechazado (falla cerrado)", regla.grupo)
                raise respuestas.ErrorAPI(
                    503, detalle="No es posible atender la solicitud ahora. Intente más tarde."
                ) from None
            logger.warning("cache no disponible: %s atendido sin límite", regla.grupo)
            return None
    excedidos = [u for u in usos if u.excedido]
    if excedidos:
        raise error_429(max(excedidos, key=lambda u: u.reintentar_en))
    return min(usos, key=lambda u: u.restante) if usos else None


def limitar(*reglas: Regla, falla_cerrado: bool = False) -> Callable:
    """Decorator for a view: apply the rules and add X-RateLimit-* headers to the answer."""

    def decorador(vista: Callable) -> Callable:
        @functools.wraps(vista)
        def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                uso = aplicar(request, reglas, falla_cerrado=falla_cerrado)
            except respuestas.ErrorAPI as exc:
                return respuestas.respuesta_de_error(exc)
            response = vista(request, *args, **kwargs)
            if uso is not None:
                for nombre, valor in cabeceras(uso).items():
                    response.headers.setdefault(nombre, valor)
            return response

        return envuelta

    return decorador
