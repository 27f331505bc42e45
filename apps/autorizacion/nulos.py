"""A NUL byte or a lone surrogate in an OAuth request: malformed input, refused before the library
reads it.

PostgreSQL holds neither in text, and the library looks client ids, codes and refresh tokens up in
the database: a `%00` in any of them was a 500 there (SQLite let it through). No protocol value
may carry a control character (RFC 6749 appendix A), so a request with one anywhere (query, form
body, the client's HTTP Basic credentials) is answered in its endpoint's format before the view
runs: the token and revocation endpoints in JSON with no-store, `invalid_client` (401, as for an
unknown client) when it is in the client's credentials and `invalid_request` (400) otherwise; the
authorization endpoint with the hub's error page (400; with no client to trust, no redirect).
Registration reads JSON, not a form: its view asks `con_nul` of the metadata it read. (The admin
has its own guard, hub.administracion.nulos; the JSON API's serializers refuse NUL per field.)
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.response import TemplateResponse

_ILEGIBLES = re.compile("[\x00\ud800-\udfff]")
# Where a client's credentials travel in a form body (RFC 6749 2.3.1).
CREDENCIALES = ("client_id", "client_secret")


def con_nul(valor: Any) -> bool:
    """True when NUL or a lone surrogate hides anywhere in the value, keys included."""
    pila = [valor]
    while pila:
        actual = pila.pop()
        if isinstance(actual, str):
            if _ILEGIBLES.search(actual):
                return True
        elif isinstance(actual, dict):
            pila.extend(actual.items())
        elif isinstance(actual, list | tuple):
            pila.extend(actual)
    return False


def _basic(request: HttpRequest) -> str:
    """The client's HTTP Basic credentials decoded as the library decodes them, or ''."""
    tipo, _, valor = request.headers.get("Authorization", "").partition(" ")
    if tipo != "Basic":
        return ""
    try:
        return unquote_plus(base64.b64decode(valor).decode())
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ""  # the library refuses it as it always did


def donde(request: HttpRequest) -> str | None:
    """Where NUL is: "cliente" in the client's credentials, "peticion" in another parameter,
    None nowhere."""
    if con_nul(_basic(request)) or con_nul(request.headers.get("Authorization", "")):
        return "cliente"
    parametros = [*request.GET.lists(), *request.POST.lists()]
    if any(nombre in CREDENCIALES and con_nul(valores) for nombre, valores in parametros):
        return "cliente"
    return "peticion" if con_nul(parametros) else None


def _json(status: int, error: str, descripcion: str, headers: dict | None = None) -> JsonResponse:
    respuesta = JsonResponse({"error": error, "error_description": descripcion}, status=status)
    for nombre, valor in (headers or {}).items():
        respuesta[nombre] = valor
    respuesta["Cache-Control"] = "no-store"
    respuesta["Pragma"] = "no-cache"
    return respuesta


def en_json(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The token or revocation endpoint, answering NUL with an RFC 6749 5.2 error."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        lugar = donde(request)
        if lugar == "cliente":
            # The library's answer to an unknown client, challenge included (RFC 6749 5.2).
            return _json(
                401,
                "invalid_client",
                "Las credenciales del cliente contienen caracteres no válidos.",
                {"WWW-Authenticate": 'Bearer error="invalid_client"'},
            )
        if lugar is not None:
            return _json(400, "invalid_request", "La solicitud contiene caracteres no válidos.")
        return vista(request, *args, **kwargs)

    return envuelta


def en_pagina(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The authorization endpoint, answering NUL with the hub's error page (no redirect)."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if donde(request) is None:
            return vista(request, *args, **kwargs)
        contexto = {
            "error": {
                "error": "invalid_request",
                "description": "La solicitud de la aplicación contiene caracteres no válidos.",
            }
        }
        return TemplateResponse(
            request,
            "autorizacion/consentimiento.html",
            contexto,
            status=400,
            headers={"Cache-Control": "no-store"},
        )

    return envuelta
