"""The brand for every template: `{{ marca.nombre }}`, `{{ marca.color_primario }}`, ..."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from apps.marca import selectors
from apps.marca.colores import enlace_legible, oscurecer, texto_sobre
from apps.marca.imagenes import CONTENT_TYPES

__all__ = ["marca", "marca_para_plantilla", "texto_sobre"]


def colores_derivados(primario: str, acento: str) -> dict[str, str]:
    """What pages draw with besides the two brand colours: text on them, links, a darker shade."""
    oscuro = oscurecer(primario, 0.75)
    return {
        "texto_sobre_primario": texto_sobre(primario),
        "texto_sobre_acento": texto_sobre(acento),
        # A primary too light on white would make links unreadable: pages use this instead.
        "color_enlace": enlace_legible(primario),
        "color_primario_oscuro": oscuro,
        "texto_sobre_primario_oscuro": texto_sobre(oscuro),
    }


def marca_para_plantilla(request: HttpRequest | None) -> dict[str, Any]:
    """The interface's brand fields plus what a page needs to draw it (text colours, MIME)."""
    publica = selectors.marca_publica()
    datos = selectors.datos_marca(request, publica)
    # The staff's help desk, apart from the citizens' published address ("la mesa de ayuda
    # {{ marca.de_entidad }}" = "… del Instituto …").
    datos.update(publica.personal)
    datos.update(colores_derivados(datos["color_primario"], datos["color_acento"]))
    tipo = datos.get("favicon_tipo")
    datos["favicon_content_type"] = CONTENT_TYPES[tipo] if tipo else None
    return datos


def marca(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the brand, read (from the cache) only if a template uses it."""
    return {"marca": SimpleLazyObject(lambda: marca_para_plantilla(request))}
