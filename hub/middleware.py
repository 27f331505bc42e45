"""The outer middlewares: request id and access log, browser and cache headers, body size, the
global per-IP limit, and envelopes for API failures."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse

from hub import paginas_error, registro_logs, respuestas, seguridad
from hub.ip import ip_cliente
from hub.limites import CacheNoDisponible, contar
from hub.models import Limites
from hub.singleton import memoria_de_peticion

logger = logging.getLogger("hub.errores")
acceso = logging.getLogger("hub.acceso")


class RegistroPeticionMiddleware:
    """The very first: a request id for every log line of the request, one access line, and
    each singleton read once per request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = registro_logs.iniciar(request)
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
                request.path[: registro_logs.MAX_RUTA],
                estado,
                extra={
                    "status": estado,
                    "duration_ms": round((time.perf_counter() - inicio) * 1000, 1),
                },
            )
            return response
        finally:
            registro_logs.terminar(token)


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


def _largo_declarado(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return -1


class PrimeraLineaMiddleware:
    """Runs before anything else so that refused requests cost as little as possible."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        es_api = respuestas.es_ruta_api(request.path)
        if es_api:
            largo = _largo_declarado(request)
            if largo < 0:
                return respuestas.error(400, detalle="Content-Length no es válido.")
            if largo > settings.HUB_MAX_CUERPO:
                return respuestas.error(
                    413,
                    detalle=f"El cuerpo supera el máximo de {settings.HUB_MAX_CUERPO} bytes.",
                )

        uso = None
        # /salud/ is exempt: a probe must answer even with the database down, and probes from a load
        # balancer would otherwise count against its single IP.
        if not request.path.startswith(("/static/", "/favicon.ico", "/salud/")):
            limite = Limites.cargar().global_por_minuto
            try:
                uso = contar(grupo="global", clave=ip_cliente(request), limite=limite, ventana=60)
            except CacheNoDisponible:
                logger.warning("cache no disponible: límite global no aplicado")
        if uso is not None and uso.excedido:
            espera = {"Retry-After": str(uso.reintentar_en)}
            response: HttpResponse = (
                respuestas.error(429, headers=espera)
                if es_api
                else paginas_error.demasiadas(request, espera)
            )
        else:
            response = self.get_response(request)
        if uso is not None:
            response.headers["X-RateLimit-Global-Limit"] = str(uso.limite)
            response.headers["X-RateLimit-Global-Remaining"] = str(uso.restante)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception):
        """Under /api/ an exception never becomes an HTML page: the envelope answers."""
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
        logger.exception("error no controlado en %s %s", request.method, request.path)
        return respuestas.error(500)


def api_sin_csrf(get_response):
    """Mark /api/ requests exempt from CSRF before Django's CsrfViewMiddleware sees them.

    API paths use no cookies, so a CSRF token cannot protect them; without this a real client
    POSTing to one would get Django's HTML 403 page instead of the envelope (the test client
    skips CSRF and would hide it). Pages with a session keep the full protection.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        if respuestas.es_ruta_api(request.path):
            request._dont_enforce_csrf_checks = True
        return get_response(request)

    return middleware
