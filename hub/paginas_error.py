"""Branded Spanish error pages for people (400, 403, 404, 429, 500, CSRF); /api/ keeps the envelope.

Django calls these as `handlerNNN` (wrapped by `respuestas.handler_api`) and as
`CSRF_FAILURE_VIEW`; the global rate limit and `ErrorAPI` raised by a page use `pagina` directly.
Every page extends `base.html` (brand, CSP nonce). If the page itself cannot be drawn (the
database or the cache down during a 500), a plain page without the brand answers instead.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
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
    return HttpResponse(html, status=status, headers=dict(headers or {}))


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
