"""CORS for the contact endpoint only: browsers on a configured site's origin may post to it."""

from __future__ import annotations

import functools

from corsheaders.middleware import CorsMiddleware
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse

from apps.notificaciones import selectors


@functools.cache
def _ruta_contacto() -> str:
    # Resolved once per process: the signal runs on every request, and reverse() is not free.
    return reverse("notificaciones:contacto")


def permitir_origen_de_sitio(sender, request: HttpRequest, **kwargs) -> bool:
    """django-cors-headers signal: allow the origins listed by active sites, on this path only."""
    if request.path != _ruta_contacto():
        return False
    return selectors.origen_permitido(request.headers.get("Origin"))


class CorsPreflight204Middleware(CorsMiddleware):
    """django-cors-headers, with the preflight answered 204 (no body) as the interface lists;
    the library answers 200. CORS_URLS_REGEX keeps it to the contact endpoint."""

    def check_preflight(self, request: HttpRequest) -> HttpResponseBase | None:
        response = super().check_preflight(request)
        if response is not None:
            response.status_code = 204
        return response
