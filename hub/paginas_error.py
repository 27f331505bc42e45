"""Branded Spanish error pages for people (400, 403, 404, 429, 500, CSRF); /api/ keeps the envelope.

Django calls these as `handlerNNN` (wrapped by `respuestas.handler_api`) and as
`CSRF_FAILURE_VIEW`; the global rate limit and `ErrorAPI` raised by a page use `pagina` directly.
Every page extends `base.html` (brand, CSP nonce). If the page itself cannot be drawn (the
database or the cache down during a 500), a plain page without the brand answers instead.

With DEBUG on (`make run`) Django skips the handlers and draws its technical pages (English,
the traceback, every URL pattern); `PaginasDeMarcaConDebug` puts the handlers back so a person
trying the demo sees the same pages as in production. HUB_DEBUG_TECNICO=true brings Django's
technical pages back for a developer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.urls import Resolver404, get_resolver, get_urlconf
from django.utils.html import escape

from hub import respuestas

logger = logging.getLogger("hub.errores")

# status -> (template, title for the plain fallback)
PLANTILLAS: dict[int, tuple[str, str]] = {
    400: ("400.html", "Solicitud no válida"),
    403: ("403.html", "No tiene permiso para ver esta página"),
    404: ("404.html", "Página no encontrada"),
    429: ("429.html", "Demasiadas solicitudes"),
    500: ("500.html", "Ocurrió un error"),
}
CSRF = ("403_csrf.html", "El formulario venció")


def _respaldo(request: HttpRequest, titulo: str, status: int) -> str:
    """A page that needs neither the database nor the cache (nor the template engine)."""
    nonce = escape(getattr(request, "csp_nonce", ""))
    ident = escape(getattr(request, "request_id", ""))
    codigo = f"<p>Código de la solicitud: <code>{ident}</code></p>" if ident else ""
    return (
        '<!doctype html><html lang="es"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(titulo)}</title><style nonce="{nonce}">body{{font-family:system-ui,'
        "sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}}</style>"
        f"</head><body><h1>{escape(titulo)}</h1><p>Error {status}. Intente de nuevo en unos "
        f'minutos.</p>{codigo}<p><a href="/">Ir al inicio</a></p></body></html>'
    )


def pagina(
    request: HttpRequest,
    status: int,
    *,
    plantilla: tuple[str, str] | None = None,
    contexto: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> HttpResponse:
    """The branded page of an error status, with `headers` (e.g. Retry-After)."""
    nombre, titulo = plantilla or PLANTILLAS.get(status, PLANTILLAS[500])
    datos = {"status": status, "request_id": getattr(request, "request_id", ""), **(contexto or {})}
    try:
        html = render_to_string(nombre, datos, request=request)
    except Exception:  # an error page must never fail: draw the plain one
        logger.exception("no fue posible dibujar la página de error %s", status)
        html = _respaldo(request, titulo, status)
    respuesta = HttpResponse(html, status=status, headers=dict(headers or {}))
    respuesta.pagina_de_marca = True  # under DEBUG too it keeps the CSP (hub.seguridad)
    return respuesta


def solicitud_invalida(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return pagina(request, 400)


def prohibido(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return pagina(request, 403)


def no_encontrado(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return pagina(request, 404)


def error_servidor(request: HttpRequest) -> HttpResponse:
    return pagina(request, 500)


def demasiadas(request: HttpRequest, headers: Mapping[str, str]) -> HttpResponse:
    """429 for a person: how long to wait, with the same headers as the envelope."""
    return pagina(
        request, 429, contexto={"reintentar_en": headers.get("Retry-After")}, headers=headers
    )


def de_error_api(request: HttpRequest, exc: respuestas.ErrorAPI) -> HttpResponse:
    """An `ErrorAPI` raised while serving a page: the page of its status, same headers."""
    if exc.status == 429:
        return demasiadas(request, exc.headers)
    return pagina(request, exc.status, headers=exc.headers)


def csrf_fallido(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form that expired or came without its cookie."""
    if respuestas.es_ruta_api(request.path):
        return respuestas.error(403)
    return pagina(request, 403, plantilla=CSRF)


def _estado_de(exception: Exception) -> int:
    """The status Django's handlers give an exception outside DEBUG."""
    if isinstance(exception, Http404):
        return 404
    if isinstance(exception, PermissionDenied):
        return 403
    if isinstance(exception, (BadRequest, SuspiciousOperation, MultiPartParserError)):
        return 400
    return 500


def _manejador(request: HttpRequest, status: int, exception: Exception | None) -> HttpResponse:
    """The root URLconf's `handlerNNN`: the very answer production gives (envelope under /api/)."""
    callback = get_resolver(get_urlconf()).resolve_error_handler(status)
    return callback(request) if status == 500 else callback(request, exception)


class PaginasDeMarcaConDebug:
    """With DEBUG on, answer errors through the branded handlers instead of Django's technical
    pages, unless HUB_DEBUG_TECNICO asks for those. Outside DEBUG it does nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    @staticmethod
    def activo() -> bool:
        # Read on each request: tests and the live server switch DEBUG with override_settings.
        return settings.DEBUG and not settings.HUB_DEBUG_TECNICO

    def __call__(self, request: HttpRequest) -> HttpResponse:
        respuesta = self.get_response(request)
        # A path no URL pattern matched never reaches a view (so not process_exception below):
        # Django answered its technical 404, which lists every pattern. No match, no view.
        if respuesta.status_code == 404 and request.resolver_match is None and self.activo():
            return _manejador(request, 404, Resolver404({"path": request.path_info}))
        return respuesta

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not self.activo() or isinstance(exception, respuestas.ErrorAPI):
            return None  # ErroresApiMiddleware answers ErrorAPI (and every /api/ exception)
        if respuestas.es_ruta_api(request.path):
            return None
        status = _estado_de(exception)
        if status == 500:
            # As Django does outside DEBUG: the signal (the test client re-raises through it)
            # and the traceback in the console, where the developer looks.
            signals.got_request_exception.send(sender=None, request=request)
            logger.error(
                "error no controlado en %s %s", request.method, request.path, exc_info=exception
            )
        return _manejador(request, status, exception)
