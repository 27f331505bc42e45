"""CORS for the contact endpoint only: browsers on a configured site's origin may post to it."""

from __future__ import annotations

import functools

from django.http import HttpRequest
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
