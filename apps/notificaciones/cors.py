"""CORS for the contact endpoint only: browsers on a configured site's origin may post to it."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from apps.notificaciones import selectors


def permitir_origen_de_sitio(sender, request: HttpRequest, **kwargs) -> bool:
    """django-cors-headers signal: allow the origins listed by active sites, on this path only."""
    if request.path != reverse("notificaciones:contacto"):
        return False
    return selectors.origen_permitido(request.headers.get("Origin"))
