"""Every route of the URLconf, for the tests that check something of each view."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.urls import URLPattern, URLResolver, get_resolver


def rutas(patrones=None, prefijo: str = "") -> Iterator[tuple[str, Callable]]:
    """(route text, callback) of every route, nested ones with their prefix."""
    for patron in get_resolver().url_patterns if patrones is None else patrones:
        texto = prefijo + str(patron.pattern)
        if isinstance(patron, URLResolver):
            yield from rutas(patron.url_patterns, texto)
        elif isinstance(patron, URLPattern):
            yield texto, patron.callback
