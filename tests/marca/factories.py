"""Real image bytes and brand helpers for the brand tests."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from apps.marca import services
from apps.marca.models import ImagenMarca, Marca

URL_MARCA = "/auth/api/v1/auth/marca"


def url_archivo(slot: str) -> str:
    return f"{URL_MARCA}/archivo/{slot}"


def _imagen(formato: str, color: tuple[int, int, int, int], lado: int, **opciones) -> bytes:
    salida = io.BytesIO()
    Image.new("RGBA", (lado, lado), color).save(salida, format=formato, **opciones)
    return salida.getvalue()


def png(color: tuple[int, int, int, int] = (11, 79, 108, 255), lado: int = 8) -> bytes:
    return _imagen("PNG", color, lado)


def ico(color: tuple[int, int, int, int] = (11, 79, 108, 255)) -> bytes:
    return _imagen("ICO", color, 32, sizes=[(16, 16), (32, 32)])


def webp(color: tuple[int, int, int, int] = (11, 79, 108, 255)) -> bytes:
    return _imagen("WEBP", color, 8, lossless=True)


def svg(relleno: str = "#0B4F6C") -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        f'<rect width="10" height="10" fill="{relleno}"/></svg>'
    ).encode()


def poner_imagen(slot: str, datos: bytes) -> ImagenMarca:
    return services.guardar_imagen(slot=slot, datos=datos)


def cambiar_marca(**cambios: Any) -> Marca:
    return services.actualizar_marca(cambios=cambios)
