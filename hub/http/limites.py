"""Rate limits: django-ratelimit counts every limit of the interface; this module decides.

django-ratelimit's `get_usage` keeps each count in the shared cache (Redis, or the file store
every process of the host shares) in a fixed window per key. What is ours sits on top: the limit
values the administrator sets at run time, the X-RateLimit-* headers and Retry-After, and what to
do when the cache cannot count (fail open for reads, closed for the endpoints docs/contrato.md
names in «Límites»).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django_ratelimit.core import get_usage

from hub.cache import lote
from hub.http import respuestas
from hub.http.ip import decidir
from hub.observabilidad import metricas

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


def clave_ip(request: HttpRequest) -> str:
    """The client's address as per-IP limits count it (hub.http.ip.red_de): decided once as the
    request came in (hub.http.ip.decidir); a request built by hand (tests) has it decided here."""
    if not hasattr(request, "red_cliente"):
        decidir(request)
    return request.red_cliente


@metricas.rechazos_de_limites
def contar(
    *,
    grupo: str,
    clave: str,
    limite: int,
    ventana: int,
    incrementar: bool = True,
    request: HttpRequest | None = None,
) -> Uso:
    """Count one hit (or just read, with incrementar=False) in a fixed window of `ventana` seconds.

    A hit the request's batch already counted (hub.cache.lote: the same key, by django-ratelimit's
    rule) is taken from there; any other goes through django-ratelimit. Raises CacheNoDisponible
    when the cache cannot answer.
    """
    if incrementar:
        lote.anotar_limite(grupo, limite)
        if lote.activo():
            llave, fin = lote.Conteo(grupo, clave, limite, ventana).llave()
            contados = lote.contado(llave)
            if contados is not None:
                return Uso(limite=limite, usados=contados, reintentar_en=fin - lote.ahora() + 1)
    try:
        uso = get_usage(
            request,
            group=grupo,
            key=lambda _grupo, _request: clave,
            rate=f"{limite}/{ventana}s",
            increment=incrementar,
        )
    except Exception as exc:  # whatever the cache raised: it could not count
        raise CacheNoDisponible(type(exc).__name__) from exc
    # With RATELIMIT_FAIL_OPEN off, a count the cache could not give comes back as limit 0.
    if uso is None or uso["limit"] == 0:
        raise CacheNoDisponible("la caché no devolvió la cuenta")
    # django-ratelimit's window ends at the second `time_left` names, counted in: the next one
    # starts a second later.
    return Uso(limite=limite, usados=int(uso["count"]), reintentar_en=int(uso["time_left"]) + 1)


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
    clave: Callable[[HttpRequest], str] = clave_ip


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
                    request=request,
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


def poner_cabeceras(response: HttpResponse, uso: Uso | None) -> HttpResponse:
    """The endpoint limit's headers on an answer that does not set its own."""
    if uso is not None:
        for nombre, valor in cabeceras(uso).items():
            response.headers.setdefault(nombre, valor)
    return response
