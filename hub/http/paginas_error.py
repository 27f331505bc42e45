"""Branded Spanish error pages for people (400, 403, 404, 429, 500, CSRF); /api/ keeps the envelope.

Django calls these as `handlerNNN` (wrapped by `respuestas.handler_api`) and as
`CSRF_FAILURE_VIEW`; the global rate limit and `ErrorAPI` raised by a page use `pagina` directly.
Every page extends `base.html` (brand, CSP nonce). If the page itself cannot be drawn (the
database or the cache down during a 500), a plain page without the brand answers instead.

With DEBUG on (`make run`) Django skips the handlers and draws its technical pages (English,
the traceback, every URL pattern), wherever the error was raised; `respuesta_de_excepcion` puts
the handlers back so a person trying the demo sees the same pages as in production, and
`ComunComoEnProduccion` redirects a POST without its final slash as production does.
HUB_DEBUG_TECNICO=true brings Django's technical pages back for a developer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import handlers as archivos_estaticos
from django.core.handlers import exception as manejo_de_excepciones
from django.http import HttpRequest, HttpResponse
from django.middleware.common import CommonMiddleware
from django.template.loader import render_to_string
from django.urls import get_resolver, get_urlconf
from django.utils.html import escape
from django.utils.http import escape_leading_slashes

from hub.http import respuestas

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
    respuesta.pagina_de_marca = True  # under DEBUG too it keeps the CSP (hub.http.seguridad)
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


def activo() -> bool:
    """Whether errors get the branded pages under DEBUG (HUB_DEBUG_TECNICO asks for Django's)."""
    # Read on each request: tests and the live server switch DEBUG with override_settings.
    return settings.DEBUG and not settings.HUB_DEBUG_TECNICO


def _manejador(request: HttpRequest, status: int, exception: Exception) -> HttpResponse:
    """The root URLconf's `handlerNNN`: the very answer production gives (envelope under /api/)."""
    callback = get_resolver(get_urlconf()).resolve_error_handler(status)
    return callback(request) if status == 500 else callback(request, exception)


_DE_DJANGO = manejo_de_excepciones.response_for_exception


def respuesta_de_excepcion(request: HttpRequest, exc: Exception) -> HttpResponse:
    """Django's `response_for_exception` (its status, logs and signals), with the branded page in
    place of its technical one under DEBUG: for errors of a view, of a middleware, of the
    resolver (no pattern matched) and of `process_view` alike."""
    respuesta = _DE_DJANGO(request, exc)
    if not activo() or getattr(respuesta, "pagina_de_marca", False):
        return respuesta  # outside DEBUG Django already called the handler (so 403 and 400 too)
    de_marca = _manejador(request, respuesta.status_code, exc)
    # Into Django's own answer, which log_response has marked as logged: the handler does not log
    # the error a second time at the end.
    respuesta.status_code = de_marca.status_code
    respuesta.headers = de_marca.headers
    respuesta.content = de_marca.content
    respuesta.pagina_de_marca = True
    return respuesta


def instalar() -> None:
    """Put `respuesta_de_excepcion` where Django's handlers look it up (ready(), DEBUG only)."""
    # Every middleware and the view are wrapped by convert_exception_to_response, which reads
    # the module's name on each error; runserver's static files handler imported it by name.
    # Not a public API of Django: installed only with DEBUG on (make run), so production runs
    # Django's own function; tests/hub/test_paginas_error.py checks both sides.
    manejo_de_excepciones.response_for_exception = respuesta_de_excepcion
    archivos_estaticos.response_for_exception = respuesta_de_excepcion


def desinstalar() -> None:
    """Give Django its own `response_for_exception` back (tests that turn DEBUG on and off)."""
    manejo_de_excepciones.response_for_exception = _DE_DJANGO
    archivos_estaticos.response_for_exception = _DE_DJANGO


class ComunComoEnProduccion(CommonMiddleware):
    """Django's CommonMiddleware, but a POST to a path without its final slash is redirected
    under DEBUG as in production (Django raises a RuntimeError there, a 500 for the person)."""

    def get_full_path_with_slash(self, request: HttpRequest) -> str:
        if activo():
            return escape_leading_slashes(request.get_full_path(force_append_slash=True))
        return super().get_full_path_with_slash(request)
