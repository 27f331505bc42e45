"""Public brand endpoints: the brand (JSON envelope) and its image files, both with ETags."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags

from apps.marca import selectors
from apps.marca.imagenes import CONTENT_TYPES, EXTENSIONES
from hub import respuestas
from hub.limites import Regla, limitar
from hub.models import Limites

# Both endpoints share one budget per IP (interface: 600 per minute, adjustable in Limites).
REGLA_MARCA = Regla(grupo="marca", limite=lambda: Limites.cargar().marca_por_minuto, ventana=60)
REVALIDAR = "public, max-age=0, must-revalidate"
# An image asked for with ?v=<current version> can never change under that address.
INMUTABLE = "public, max-age=31536000, immutable"
# An SVG opened directly must not run anything nor load anything (it was also cleaned on upload).
CSP_IMAGEN = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


def coincide(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match matches: '*', the tag, or a list holding it (weak comparison, W/ allowed)."""
    if not if_none_match:
        return False
    etiquetas = parse_etags(if_none_match)
    if "*" in etiquetas:
        return True
    return any(e.removeprefix("W/") == etag for e in etiquetas)


def _no_modificado(headers: dict[str, str]) -> HttpResponse:
    response = HttpResponseNotModified()
    for nombre, valor in headers.items():
        response[nombre] = valor
    return response


@respuestas.metodos("GET")
@limitar(REGLA_MARCA)
def marca(request: HttpRequest) -> HttpResponse:
    """GET /api/v1/auth/marca: the current brand; 304 when the client holds this version."""
    publica = selectors.marca_publica()
    headers = {"ETag": publica.etag, "Cache-Control": REVALIDAR}
    if coincide(request.headers.get("If-None-Match"), publica.etag):
        return _no_modificado(headers)
    return respuestas.ok(selectors.datos_marca(request, publica), headers=headers)


def _sin_imagen() -> HttpResponse:
    return respuestas.error(404, detalle="La imagen no está configurada o el espacio no existe.")


@respuestas.metodos("GET")
@limitar(REGLA_MARCA)
def archivo(request: HttpRequest, slot: str) -> HttpResponse:
    """GET /api/v1/auth/marca/archivo/{slot}: the image bytes with their real Content-Type."""
    publica = selectors.marca_publica()
    info = selectors.info_imagen(slot, publica)
    if info is None:
        return _sin_imagen()
    version_pedida = request.GET.get("v") == publica.version
    headers = {
        "ETag": info.etag,
        "Cache-Control": INMUTABLE if version_pedida else REVALIDAR,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": CSP_IMAGEN,
    }
    if coincide(request.headers.get("If-None-Match"), info.etag):
        return _no_modificado(headers)
    leida = selectors.bytes_imagen(info)
    if leida is None:
        return _sin_imagen()
    datos, actual = leida
    if actual.sha256 != info.sha256:  # changed since the brand was cached: not immutable
        headers.update({"ETag": actual.etag, "Cache-Control": REVALIDAR})
    headers["Content-Disposition"] = f'inline; filename="{slot}.{EXTENSIONES[actual.tipo]}"'
    return HttpResponse(datos, content_type=CONTENT_TYPES[actual.tipo], headers=headers)
