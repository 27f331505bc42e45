"""Brand images: the type read from the bytes (never the file name), limits, and SVG cleaning."""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from defusedxml import ElementTree as DefusedET
from defusedxml.common import DefusedXmlException
from django.core.exceptions import ValidationError
from PIL import Image

from apps.marca.css import limpiar_css

# 512 KiB per image: a logo, isotype or favicon never needs more, and a brand read on every
# page should stay small in the shared cache.
TAMANO_MAXIMO = 512 * 1024
# Raster images larger than this per side are refused (also guards against decompression bombs).
LADO_MAXIMO = 4096

TIPOS = ("svg", "png", "ico", "webp")
CONTENT_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "ico": "image/x-icon",  # the name every browser knows; image/vnd.microsoft.icon is the IANA one
    "webp": "image/webp",
}
EXTENSIONES = {"svg": "svg", "png": "png", "ico": "ico", "webp": "webp"}

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"

# Elements kept in an SVG; anything else (script, foreignObject, iframe, animation elements that
# could rewrite an href, other namespaces such as Inkscape's metadata) is removed with its subtree.
ELEMENTOS_SVG = frozenset(
    {
        "svg", "g", "defs", "symbol", "use", "title", "desc", "a",
        "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
        "text", "tspan", "textPath",
        "linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker",
        "image", "style", "switch",
        "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite",
        "feConvolveMatrix", "feDiffuseLighting", "feDisplacementMap", "feDistantLight",
        "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur",
        "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
        "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
    }
)  # fmt: skip

# Only embedded raster data may be referenced by <image>; everything else must be "#id".
_DATA_IMAGEN = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$", re.I)
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")


@dataclass(frozen=True)
class ImagenValida:
    """Accepted image: the bytes to store (an SVG is cleaned), their type and digest."""

    contenido: bytes
    tipo: str
    sha256: str

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.tipo]


def detectar_tipo(datos: bytes) -> str | None:
    """svg, png, ico or webp from the magic numbers (SVG: an XML document whose root is svg)."""
    if datos.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if len(datos) >= 12 and datos[:4] == b"RIFF" and datos[8:12] == b"WEBP":
        return "webp"
    # ICO: reserved 0, type 1 (2 would be a cursor), at least one image in the directory.
    if len(datos) >= 6 and datos[:4] == b"\x00\x00\x01\x00" and datos[4:6] != b"\x00\x00":
        return "ico"
    if _raiz_svg(datos) is not None:
        return "svg"
    return None


def _nombre_local(etiqueta: str) -> tuple[str | None, str]:
    if etiqueta.startswith("{"):
        ns, _, local = etiqueta[1:].partition("}")
        return ns, local
    return None, etiqueta


def _raiz_svg(datos: bytes) -> ET.Element | None:
    """The parsed root when the bytes are XML with an <svg> root; None otherwise."""
    inicio = datos.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if inicio != b"<":
        return None
    try:
        # defusedxml: no entity expansion (billion laughs), no external entities or DTDs fetched.
        raiz = DefusedET.fromstring(datos)
    except (ET.ParseError, DefusedXmlException, ValueError):
        return None
    ns, local = _nombre_local(raiz.tag)
    if local != "svg" or ns not in (None, SVG_NS):
        return None
    return raiz


def _es_ns_svg(ns: str | None) -> bool:
    return ns is None or ns == SVG_NS


def _referencia_valida(valor: str, *, en_imagen: bool) -> bool:
    valor = valor.strip()
    if valor.startswith("#"):
        return True
    return en_imagen and bool(_DATA_IMAGEN.match(valor))


def _limpiar_atributos(elemento: ET.Element, local: str) -> None:
    for nombre in list(elemento.attrib):
        valor = elemento.attrib[nombre]
        ns, atributo = _nombre_local(nombre)
        compacto = _CONTROL.sub("", valor).lower()
        quitar = False
        if ns not in (None, XLINK_NS, XML_NS):
            quitar = True  # editor metadata (inkscape:, sodipodi:) and unknown namespaces
        elif atributo.lower().startswith("on"):
            quitar = True  # event handlers: onload, onclick, ...
        elif atributo == "href":
            quitar = not _referencia_valida(valor, en_imagen=local == "image")
        elif "javascript:" in compacto or "vbscript:" in compacto or "data:text" in compacto:
            quitar = True
        elif (css := limpiar_css(valor)) != valor:
            # style= and presentation attributes (fill, filter, ...) are CSS to the browser.
            elemento.set(nombre, css)
        if quitar:
            del elemento.attrib[nombre]


def _limpiar_arbol(padre: ET.Element) -> None:
    for hijo in list(padre):
        if not isinstance(hijo.tag, str):  # comments and processing instructions
            padre.remove(hijo)
            continue
        ns, local = _nombre_local(hijo.tag)
        if not _es_ns_svg(ns) or local not in ELEMENTOS_SVG:
            padre.remove(hijo)
            continue
        if ns is None:
            hijo.tag = f"{{{SVG_NS}}}{local}"
        _limpiar_atributos(hijo, local)
        if local == "style":
            hijo.text = limpiar_css(hijo.text or "")
            for nieto in list(hijo):
                hijo.remove(nieto)
        _limpiar_arbol(hijo)


def _serializar(elemento: ET.Element, partes: list[str], *, raiz: bool) -> None:
    _, local = _nombre_local(elemento.tag)
    atributos = []
    if raiz:
        atributos.append(f'xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}"')
    for nombre, valor in elemento.attrib.items():
        ns, atributo = _nombre_local(nombre)
        prefijo = {XLINK_NS: "xlink:", XML_NS: "xml:"}.get(ns or "", "")
        atributos.append(f"{prefijo}{atributo}={quoteattr(valor)}")
    apertura = " ".join([local, *atributos])
    if not len(elemento) and not elemento.text:
        partes.append(f"<{apertura}/>")
    else:
        partes.append(f"<{apertura}>{escape(elemento.text or '')}")
        for hijo in elemento:
            _serializar(hijo, partes, raiz=False)
        partes.append(f"</{local}>")
    partes.append(escape(elemento.tail or "") if not raiz else "")


def limpiar_svg(raiz: ET.Element) -> bytes:
    """A neutralized copy: no scripts, handlers, javascript: links, foreignObject, outside refs."""
    raiz.tag = f"{{{SVG_NS}}}svg"
    _limpiar_atributos(raiz, "svg")
    _limpiar_arbol(raiz)
    partes = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    _serializar(raiz, partes, raiz=True)
    return ("".join(partes) + "\n").encode("utf-8")


def _verificar_raster(datos: bytes, tipo: str) -> None:
    formato = {"png": "PNG", "ico": "ICO", "webp": "WEBP"}[tipo]
    try:
        with Image.open(io.BytesIO(datos), formats=[formato]) as img:
            ancho, alto = img.size
            if ancho > LADO_MAXIMO or alto > LADO_MAXIMO:
                raise ValidationError(
                    f"La imagen mide {ancho}×{alto} píxeles; el máximo es "
                    f"{LADO_MAXIMO}×{LADO_MAXIMO}.",
                    code="dimensiones",
                )
            img.verify()
    except ValidationError:
        raise
    except Exception:
        raise ValidationError(
            f"El archivo parece {tipo.upper()} pero está dañado o incompleto.", code="danado"
        ) from None


def validar_imagen(datos: bytes) -> ImagenValida:
    """Accept an upload or raise ValidationError with a clear Spanish message."""
    if not datos:
        raise ValidationError("El archivo está vacío.", code="vacio")
    if len(datos) > TAMANO_MAXIMO:
        raise ValidationError(
            f"El archivo pesa {len(datos) // 1024} KB; el máximo es {TAMANO_MAXIMO // 1024} KB.",
            code="tamano",
        )
    tipo = detectar_tipo(datos)
    if tipo is None:
        raise ValidationError(
            "Formato no admitido: suba una imagen SVG, PNG, ICO o WebP "
            "(se reconoce por su contenido, no por el nombre del archivo).",
            code="formato",
        )
    if tipo == "svg":
        raiz = _raiz_svg(datos)
        assert raiz is not None  # detectar_tipo just parsed it
        contenido = limpiar_svg(raiz)
        if len(contenido) > TAMANO_MAXIMO:
            raise ValidationError(f"El SVG supera {TAMANO_MAXIMO // 1024} KB.", code="tamano")
    else:
        _verificar_raster(datos, tipo)
        contenido = datos
    return ImagenValida(
        contenido=contenido, tipo=tipo, sha256=hashlib.sha256(contenido).hexdigest()
    )
