"""Public brand endpoints: the brand (JSON envelope) and its image files, both with ETags."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request

from apps.marca import selectors
from apps.marca.imagenes import CONTENT_TYPES, EXTENSIONES
from apps.marca.models import CLAVE_PUBLICA
from apps.marca.serializers import Marca
from hub.cache.versionado import claves_versionado
from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.http.limites import Regla
from hub.models import Limites
from hub.openapi import componentes as c
from hub.openapi import documentar as d

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


SI_NO_COINCIDE = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    d.HEADER,
    description="ETag de una respuesta anterior: si sigue vigente, 304 sin cuerpo.",
)
ETAG_CACHE = [200, 304]


class MarcaAPI(VistaPublica):
    """GET /api/v1/auth/marca: the current brand; 304 when the client holds this version."""

    reglas = (REGLA_MARCA,)

    @classmethod
    def lecturas(cls, request, **kwargs) -> list[str]:
        return claves_versionado(CLAVE_PUBLICA)

    @d.documentar(
        operation_id="marca",
        summary="Marca vigente",
        description="Identidad visual pública de la organización. Responde 304 sin cuerpo cuando "
        "If-None-Match coincide con el ETag vigente. Límite: 600 por minuto por IP (compartido con "
        "las imágenes). Otros métodos: 405 `METODO_NO_PERMITIDO` con Allow: GET, HEAD.",
        tags=["Marca"],
        auth=[],
        parametros=[
            SI_NO_COINCIDE,
            d.cabecera(
                "ETag",
                "Huella de la marca entre comillas (igual a data.version).",
                ETAG_CACHE,
                tipo=d.ETAG,
                requerida=True,
            ),
            d.cabecera(
                "Cache-Control",
                "Revalidar siempre.",
                ETAG_CACHE,
                tipo=d.enum(REVALIDAR),
                requerida=True,
            ),
            *d.limite_endpoint([200, 304, 429]),
        ],
        respuestas={
            200: OpenApiResponse(
                c.sobre("SobreMarca", Marca(), "The brand in the envelope."),
                description="La marca vigente.",
            ),
            304: OpenApiResponse(description="Sin cambios: el cliente ya tiene esta versión."),
        },
    )
    def get(self, request: Request) -> HttpResponse:
        publica = selectors.marca_publica()
        headers = {"ETag": publica.etag, "Cache-Control": REVALIDAR}
        if coincide(request.headers.get("If-None-Match"), publica.etag):
            return _no_modificado(headers)
        # Shaped by `Marca` once per brand version, when it was cached (construir_publica).
        return respuestas.ok(selectors.datos_marca(request, publica), headers=headers)


def _sin_imagen() -> respuestas.ErrorAPI:
    return respuestas.ErrorAPI(404, detalle="La imagen no está configurada o el espacio no existe.")


BINARIO = OpenApiResponse(OpenApiTypes.BINARY, description="La imagen con su Content-Type real.")


class ArchivoMarcaAPI(VistaPublica):
    """GET /api/v1/auth/marca/archivo/{slot}: the image bytes with their real Content-Type."""

    reglas = (REGLA_MARCA,)
    lecturas = MarcaAPI.lecturas

    @d.documentar(
        operation_id="marca_archivo",
        summary="Imagen de la marca",
        description="El archivo de logo, isotipo o favicon. 304 cuando If-None-Match coincide. "
        "Comparte el límite de la marca. Otros métodos: 405 `METODO_NO_PERMITIDO`.",
        tags=["Marca"],
        auth=[],
        parametros=[
            OpenApiParameter(
                "slot",
                OpenApiTypes.STR,
                d.PATH,
                enum=["logo", "isotipo", "favicon"],
                description="Imagen.",
            ),
            OpenApiParameter(
                "v",
                OpenApiTypes.STR,
                d.QUERY,
                description="Versión de la marca (como en logo_url): con la vigente la respuesta "
                "es inmutable; con otra cualquiera, revalidable.",
            ),
            SI_NO_COINCIDE,
            d.cabecera(
                "ETag",
                "Huella de la imagen entre comillas.",
                ETAG_CACHE,
                tipo=d.ETAG,
                requerida=True,
            ),
            d.cabecera(
                "Cache-Control",
                "Inmutable si ?v= es la versión vigente; si no, revalidar.",
                ETAG_CACHE,
                tipo=d.enum(INMUTABLE, REVALIDAR),
                requerida=True,
            ),
            d.cabecera(
                "X-Content-Type-Options",
                "nosniff",
                ETAG_CACHE,
                tipo=d.enum("nosniff"),
                requerida=True,
            ),
            d.cabecera(
                "Content-Security-Policy",
                "Un SVG abierto directamente no ejecuta nada.",
                ETAG_CACHE,
                requerida=True,
            ),
            d.cabecera(
                "Content-Disposition", 'inline; filename="<slot>.<ext>"', [200], requerida=True
            ),
            *d.limite_endpoint([200, 304, 404, 429]),
        ],
        respuestas={
            (200, "image/png"): BINARIO,
            (200, "image/svg+xml"): BINARIO,
            (200, "image/x-icon"): BINARIO,
            (200, "image/webp"): BINARIO,
            304: OpenApiResponse(description="Sin cambios."),
            404: d.error("La imagen no está configurada o el espacio no existe.", 404),
        },
    )
    def get(self, request: Request, slot: str) -> HttpResponse:
        publica = selectors.marca_publica()
        info = selectors.info_imagen(slot, publica)
        if info is None:
            raise _sin_imagen()
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
            raise _sin_imagen()
        datos, actual = leida
        if actual.sha256 != info.sha256:  # changed since the brand was cached: not immutable
            headers.update({"ETag": actual.etag, "Cache-Control": REVALIDAR})
        headers["Content-Disposition"] = f'inline; filename="{slot}.{EXTENSIONES[actual.tipo]}"'
        return HttpResponse(datos, content_type=CONTENT_TYPES[actual.tipo], headers=headers)
