"""The brand for every template: `{{ marca.nombre }}`, `{{ marca.color_primario }}`, ..."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from apps.marca import selectors
from apps.marca.imagenes import CONTENT_TYPES


def _luminancia(color: str) -> float:
    canales = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lineales = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in canales]
    return 0.2126 * lineales[0] + 0.7152 * lineales[1] + 0.0722 * lineales[2]


def texto_sobre(color: str) -> str:
    """White or near-black, whichever reads better on `color` (WCAG contrast ratio)."""
    fondo = _luminancia(color)
    contra_blanco = 1.05 / (fondo + 0.05)
    contra_negro = (fondo + 0.05) / (_luminancia("#1A1A1A") + 0.05)
    return "#FFFFFF" if contra_blanco >= contra_negro else "#1A1A1A"


def marca_para_plantilla(request: HttpRequest | None) -> dict[str, Any]:
    """The interface's brand fields plus what a page needs to draw it (text colours, MIME)."""
    datos = selectors.datos_marca(request)
    datos["texto_sobre_primario"] = texto_sobre(datos["color_primario"])
    datos["texto_sobre_acento"] = texto_sobre(datos["color_acento"])
    tipo = datos.get("favicon_tipo")
    datos["favicon_content_type"] = CONTENT_TYPES[tipo] if tipo else None
    return datos


def marca(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the brand, read (from the cache) only if a template uses it."""
    return {"marca": SimpleLazyObject(lambda: marca_para_plantilla(request))}
