"""The client's IP address, trusting only the configured number of reverse proxies."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valida(valor: str) -> str | None:
    try:
        return str(ipaddress.ip_address(valor.strip()))
    except ValueError:
        return None


def ip_cliente(request: HttpRequest) -> str:
    """Right-most untrusted hop: with N trusted proxies, skip the N hops they appended.

    A client can write anything at the left of X-Forwarded-For, so only the hops our own proxies
    added are believed; with no trusted proxy the header is ignored entirely.
    """
    cache = getattr(request, "_hub_ip", None)
    if cache is not None:
        return cache
    remoto = _valida(request.META.get("REMOTE_ADDR", "")) or "0.0.0.0"  # noqa: S104
    confiables = settings.HUB_PROXIES_CONFIABLES
    ip = remoto
    if confiables > 0:
        saltos = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        cadena = [*saltos, remoto]
        # cadena[-1] is the proxy that spoke to us; each trusted proxy appended the one before it.
        indice = len(cadena) - 1 - confiables
        if indice >= 0:
            ip = _valida(cadena[indice]) or remoto
        elif saltos:
            ip = _valida(cadena[0]) or remoto
    request._hub_ip = ip
    return ip
