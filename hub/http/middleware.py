"""The hub's middlewares: request id and access log, browser and cache headers, body size, the
global per-IP limit, and envelopes for API failures."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse

from hub.cache import lote
from hub.cache.singleton import memoria_de_peticion
from hub.http import chunked, paginas_error, respuestas, seguridad
from hub.http.ip import decidir, olvidar_esquema_ajeno
from hub.http.limites import CacheNoDisponible, clave_ip, contar
from hub.models import Limites
from hub.observabilidad import logs

logger = logging.getLogger("hub.errores")
acceso = logging.getLogger("hub.acceso")


class LogPeticionMiddleware:
    """The very first: a request id for every log line of the request, one access line, and
    each singleton read once per request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        olvidar_esquema_ajeno(request)
        token = logs.iniciar(request, ip=decidir(request))
        inicio = time.perf_counter()
        try:
            with memoria_de_peticion():
                response = self.get_response(request)
            response["X-Request-ID"] = request.request_id
            estado = response.status_code
            acceso.log(
                logging.ERROR if estado >= 500 else logging.INFO,
                "%s %s %s",
                request.method,
                request.ruta_registrada,
                estado,
                extra={
                    "status": estado,
                    "duration_ms": round((time.perf_counter() - inicio) * 1000, 1),
                },
            )
            return response
        finally:
            logs.terminar(token)


class CabecerasSeguridadMiddleware:
    """CSP on every HTML page (nonce for the templates) and no-store on authenticated answers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.csp_nonce = seguridad.nuevo_nonce()
        response = self.get_response(request)
        seguridad.poner_csp(request, response)
        seguridad.poner_no_store(request, response)
        return response


def largo_declarado(request: HttpRequest) -> int:
    """The request's Content-Length (0 when absent), or -1 when it is not a number."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return -1


class TamanoCuerpoMiddleware:
    """A body larger than HUB_MAX_CUERPO is refused (413) before anyone reads it: under /api/ by
    its Content-Length, anywhere when it came chunked (read by hub.http.chunked.PorPartes)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (rechazado := chunked.rechazo(request)) is not None:
            return rechazado
        if respuestas.es_ruta_api(request.path):
            largo = largo_declarado(request)
            if largo < 0:
                return respuestas.error(400, detalle="Content-Length no es válido.")
            if largo > settings.HUB_MAX_CUERPO:
                return respuestas.error(
                    413,
                    detalle=f"El cuerpo supera el máximo de {settings.HUB_MAX_CUERPO} bytes.",
                )
        return self.get_response(request)


class LimiteGlobalMiddleware:
    """The global per-IP limit of every path (429 past it) and its X-RateLimit-Global-* headers.

    Counted in `process_view`, with the view in hand: with Redis the request's whole declared
    cache work (this count, the limits' singleton, and what the view declares: its own limit,
    the brand, the identity...) goes there in one round trip (hub.cache.lote). A request that
    never reaches a view (no route, a body too large, a redirect) is counted after its answer.
    """

    # /salud/ is exempt: a probe must answer even with the database down, and probes from a load
    # balancer would otherwise count against its single IP.
    EXENTAS = ("/static/", "/favicon.ico", "/salud/")
    GRUPO = "global"

    def __init__(self, get_response):
        self.get_response = get_response

    @classmethod
    def contar(cls, request: HttpRequest):
        return contar(
            grupo=cls.GRUPO,
            clave=clave_ip(request),
            limite=Limites.cargar().global_por_minuto,
            ventana=60,
            request=request,
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(self.EXENTAS):
            return self.get_response(request)
        with lote.de_la_peticion():
            response = self.get_response(request)
            if not hasattr(request, "uso_global"):  # no view was reached
                response = self.limitar(request) or response
        uso = request.uso_global
        if uso is not None:
            response.headers["X-RateLimit-Global-Limit"] = str(uso.limite)
            response.headers["X-RateLimit-Global-Remaining"] = str(uso.restante)
        return response

    def process_view(self, request: HttpRequest, vista, args, kwargs) -> HttpResponse | None:
        if request.path.startswith(self.EXENTAS):
            return None
        pedido = lote.Pedido()
        pedido.leer(Limites.claves_cache())
        pedido.contar(self.GRUPO, clave_ip(request), lote.limite_conjeturado(self.GRUPO), 60)
        declarar = lote.declaracion(vista)
        if declarar is not None:
            declarar(request, kwargs, pedido)
        lote.poner(lote.hacer(pedido))
        return self.limitar(request)

    def limitar(self, request: HttpRequest) -> HttpResponse | None:
        """Count the request; its 429 when past the limit (None: go on)."""
        try:
            uso = self.contar(request)
        except CacheNoDisponible:
            logger.warning("cache no disponible: límite global no aplicado")
            request.uso_global = None
            return None
        request.uso_global = uso
        if not uso.excedido:
            return None
        espera = {"Retry-After": str(uso.reintentar_en)}
        # A person's page gets the branded page; an API path, the envelope.
        if respuestas.es_ruta_api(request.path):
            return respuestas.error(429, headers=espera)
        return paginas_error.demasiadas(request, espera)


class ErroresApiMiddleware:
    """Under /api/ an exception never becomes an HTML page: the envelope answers; on a page, an
    API error raised there gets the branded page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        es_api = respuestas.es_ruta_api(request.path)
        if isinstance(exception, respuestas.ErrorAPI):
            if not es_api:
                return paginas_error.de_error_api(request, exception)  # a person's page
            return respuestas.respuesta_de_error(exception)
        if not es_api:
            return None
        if isinstance(exception, Http404):
            return respuestas.error(404)
        if isinstance(exception, PermissionDenied):
            return respuestas.error(403)
        if isinstance(exception, RequestDataTooBig):
            return respuestas.error(413)
        logger.exception("error no controlado en %s %s", request.method, logs.ruta(request))
        return respuestas.error(500)


# Paths under /api/ use no cookie, session, user or flash message: these run for pages only.
# Subclasses, so Django's admin checks still find them; an API request skips them entirely.


class _SoloPaginas:
    """Skip the Django middleware it is mixed into (listed first) on /api/ paths."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if respuestas.es_ruta_api(request.path):
            return self.get_response(request)
        return super().__call__(request)


class SesionSoloPaginas(_SoloPaginas, SessionMiddleware):
    """Django's session middleware, for pages only."""


class AutenticacionSoloPaginas(_SoloPaginas, AuthenticationMiddleware):
    """Django's `request.user`, for pages only (DRF's public views never ask for it)."""


class MensajesSoloPaginas(_SoloPaginas, MessageMiddleware):
    """Django's flash messages, for pages only."""
