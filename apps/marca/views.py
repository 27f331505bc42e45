"""/favicon.ico: the brand's favicon (or isotype) for every page, never a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.html import escape
from django.views.decorators.http import condition, require_safe

from apps.marca import selectors
from apps.marca.api import CSP_IMAGEN, REVALIDAR
from apps.marca.colores import texto_sobre

# The hub's own icon when the organization uploaded neither favicon nor isotype: its initial on
# the primary colour, so even a fresh install has a recognizable tab.
ICONO = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<rect width="64" height="64" rx="14" fill="{fondo}"/>'
    '<text x="32" y="45" font-family="system-ui, sans-serif" font-size="38" font-weight="700" '
    'text-anchor="middle" fill="{texto}">{inicial}</text></svg>'
)


def _version(request: HttpRequest) -> str:
    return selectors.marca_publica().version


@require_safe
@condition(etag_func=_version)
def favicon(request: HttpRequest) -> HttpResponse:
    """302 to the favicon (or isotype) image endpoint; else an SVG icon drawn from the brand."""
    publica = selectors.marca_publica()
    for slot in ("favicon", "isotipo"):
        if slot in publica.imagenes:
            return HttpResponseRedirect(selectors.url_imagen(None, slot, publica.version))
    primario = publica.datos["color_primario"]
    icono = ICONO.format(
        fondo=primario,
        texto=texto_sobre(primario),
        inicial=escape((publica.datos["nombre"].strip() or "H")[0].upper()),
    )
    return HttpResponse(
        icono,
        content_type="image/svg+xml",
        headers={
            "Cache-Control": REVALIDAR,
            "X-Content-Type-Options": "nosniff",
            # Drawn by us, yet an SVG opened directly still runs nothing and loads nothing.
            "Content-Security-Policy": CSP_IMAGEN,
        },
    )
