"""QR codes of a signature: they open the human verification page."""

from __future__ import annotations

import io

import segno

from apps.firmas.models import Firma


def codigo_qr(firma: Firma) -> segno.QRCode:
    """Error correction Q: a printed code stays readable with a stain or a fold."""
    return segno.make(firma.url_verificacion(), error="q", micro=False, boost_error=False)


def qr_svg(firma: Firma) -> bytes:
    salida = io.BytesIO()
    codigo_qr(firma).save(
        salida, kind="svg", scale=8, border=4, title="Verificación de firma electrónica"
    )
    return salida.getvalue()


def qr_png(firma: Firma) -> bytes:
    salida = io.BytesIO()
    codigo_qr(firma).save(salida, kind="png", scale=10, border=4)
    return salida.getvalue()
