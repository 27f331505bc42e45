"""A printed PDF as a phone sees it: its pages rasterized and every QR code on them decoded."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import zxingcpp

# 150 dpi: an office scanner's usual resolution (a PDF page is 72 points per inch).
ESCALA = 150 / 72


def paginas(pdf: bytes) -> list:
    """Each page of `pdf` as a PIL image at 150 dpi."""
    documento = pypdfium2.PdfDocument(pdf)
    try:
        return [pagina.render(scale=ESCALA).to_pil() for pagina in documento]
    finally:
        documento.close()


def tamano_pagina(pdf: bytes) -> tuple[int, int]:
    """Width and height of the first page, in points rounded (A4 595x842, Letter 612x792)."""
    documento = pypdfium2.PdfDocument(pdf)
    try:
        ancho, alto = documento[0].get_size()
        return round(ancho), round(alto)
    finally:
        documento.close()


def codigos_qr(pdf: bytes, *, guardar_en: Path | None = None, nombre: str = "") -> list[str]:
    """The text of every QR code on every page, top to bottom (pages saved as PNG if asked)."""
    textos = []
    for numero, imagen in enumerate(paginas(pdf), start=1):
        if guardar_en is not None:
            guardar_en.mkdir(parents=True, exist_ok=True)
            imagen.save(guardar_en / f"{nombre}_p{numero}.png")
        leidos = zxingcpp.read_barcodes(imagen, formats=zxingcpp.BarcodeFormat.QRCode)
        leidos.sort(key=lambda codigo: codigo.position.top_left.y)
        textos += [codigo.text for codigo in leidos]
    return textos
