"""The human verification page that a phone opens when scanning the QR code."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from apps.firmas.api import REGLA_VERIFICACION
from apps.firmas.selectors import resumen_verificacion
from hub import respuestas
from hub.limites import aplicar, cabeceras

PLANTILLA = "firmas/verificacion.html"
# Not cached (annulment must show at once), not indexed, and the code in the address is not
# passed on to other sites through Referer.
CABECERAS = {
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex, nofollow",
    "Referrer-Policy": "no-referrer",
}

TIPOS = {
    "paa": "Línea del Plan Anual de Adquisiciones (PAA)",
    "cdp": "Certificado de Disponibilidad Presupuestal (CDP)",
    "rp": "Registro Presupuestal (RP)",
}
# Movement types as people write them (the code carries no accents).
MOVIMIENTOS = {
    "adicion": "adición",
    "reduccion": "reducción",
    "anulacion": "anulación",
    "obligacion": "obligación",
    "liberacion": "liberación",
}
ETIQUETAS = {
    "linea": "Línea del PAA",
    "radicado": "Radicado",
    "numero_radicado": "Radicado",
    "numero_cdp": "Número de CDP",
    "numero_rp": "Número de RP",
    "objeto": "Objeto",
    "estado": "Estado",
    "vigencia": "Vigencia",
}


def nombre_tipo(tipo: Any) -> str:
    """Human name of `documento.tipo` (paa, cdp, rp, cdp_<movement>, rp_<movement>)."""
    texto = str(tipo or "")
    if texto in TIPOS:
        return TIPOS[texto]
    base, _, movimiento = texto.partition("_")
    if base in ("cdp", "rp") and movimiento:
        nombre = MOVIMIENTOS.get(movimiento, movimiento.replace("_", " "))
        return f"Movimiento de {base.upper()}: {nombre}"
    return texto.replace("_", " ").capitalize() or "Documento"


def _valor(clave: str, valor: Any) -> str:
    if valor is None or valor == "":
        return "—"
    if isinstance(valor, bool):
        return "Sí" if valor else "No"
    if clave == "estado" and isinstance(valor, str):
        return valor.replace("_", " ").capitalize()
    return str(valor)


def filas_documento(documento: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) of each fact of the document summary, type first, unknown keys included."""
    filas = [("Tipo de documento", nombre_tipo(documento.get("tipo")))]
    for clave, valor in documento.items():
        if clave == "tipo" or isinstance(valor, dict | list):
            continue
        etiqueta = ETIQUETAS.get(clave, clave.replace("_", " ").capitalize())
        filas.append((etiqueta, _valor(clave, valor)))
    return filas


def _cabeceras(respuesta: HttpResponse, valores: dict[str, str]) -> None:
    for nombre, valor in valores.items():
        respuesta[nombre] = valor


@csrf_exempt  # read-only page: other methods get a plain 405, never a CSRF error
@require_safe
def pagina_verificacion(request: HttpRequest, token: str) -> HttpResponse:
    """GET /presupuesto/verificar/<token>: valid, annulled or not found, for people."""
    try:
        uso = aplicar(request, [REGLA_VERIFICACION], falla_cerrado=False)
    except respuestas.ErrorAPI as exc:
        respuesta = render(
            request,
            PLANTILLA,
            {"estado": "limite", "reintentar_en": exc.headers.get("Retry-After", "60")},
            status=exc.status,
        )
        _cabeceras(respuesta, {**CABECERAS, **exc.headers})
        return respuesta
    datos = resumen_verificacion(token)
    if datos is None:
        contexto: dict[str, Any] = {"estado": "no_encontrada", "codigo": token[:80]}
        status = 404
    else:
        contexto = {
            "estado": "anulada" if datos["anulada"] else "valida",
            "zona": "hora de Colombia"
            if settings.TIME_ZONE == "America/Bogota"
            else f"hora de {settings.TIME_ZONE}",
            "datos": datos,
            "filas": filas_documento(datos["documento"]),
            "codigo": token,
        }
        status = 200
    respuesta = render(request, PLANTILLA, contexto, status=status)
    _cabeceras(respuesta, CABECERAS)
    if uso is not None:
        _cabeceras(respuesta, cabeceras(uso))
    return respuesta
