"""The human verification page that a phone opens when scanning the QR code, and the form where
a person types or pastes a code."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from apps.firmas.api import REGLA_VERIFICACION
from apps.firmas.selectors import hora_local, verificacion_para_personas
from hub.http import respuestas
from hub.http.limites import aplicar, cabeceras

PLANTILLA = "firmas/verificacion.html"
# A code as printed (with or without hyphens, any case), alone or inside a pasted address.
CODIGO = re.compile(
    r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE
)
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
# States whose code drops an accent people write (the rest read right once capitalized).
ESTADOS = {
    "en_revision": "En revisión",
    "en_ejecucion": "En ejecución",
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
    if isinstance(valor, bool):
        return "Sí" if valor else "No"
    if clave == "estado" and isinstance(valor, str):
        return ESTADOS.get(valor, valor.replace("_", " ").capitalize())
    return str(valor)


def filas_documento(documento: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) of each fact of the document summary, type first, unknown keys included.

    A fact the document does not have (a CDP no request originated has no radicado) is left
    out: a blank "—" beside the signature reads as something missing from the document.
    """
    filas = [("Tipo de documento", nombre_tipo(documento.get("tipo")))]
    for clave, valor in documento.items():
        if clave == "tipo" or isinstance(valor, dict | list) or valor is None or valor == "":
            continue
        etiqueta = ETIQUETAS.get(clave, clave.replace("_", " ").capitalize())
        filas.append((etiqueta, _valor(clave, valor)))
    return filas


def _cabeceras(respuesta: HttpResponse, valores: dict[str, str]) -> None:
    for nombre, valor in valores.items():
        respuesta[nombre] = valor


def _zona() -> str:
    if settings.TIME_ZONE == "America/Bogota":
        return "hora de Colombia"
    return f"hora de {settings.TIME_ZONE}"


@csrf_exempt  # read-only page: other methods get a plain 405, never a CSRF error
@require_safe
def formulario_verificacion(request: HttpRequest) -> HttpResponse:
    """GET /presupuesto/verificar/[?codigo=...]: type or paste the code of a QR (or its address).

    A recognizable code goes to its verification page; nothing is looked up here, so the form
    spends none of the verification limit.
    """
    escrito = request.GET.get("codigo")
    contexto: dict[str, Any] = {"estado": "formulario", "escrito": (escrito or "")[:300]}
    if escrito is not None:
        encontrado = CODIGO.search(escrito)
        if encontrado:
            codigo = encontrado.group(0).lower()
            return redirect(reverse("firmas:pagina_verificacion", kwargs={"token": codigo}))
        contexto["error"] = (
            "No encontramos un código de verificación en lo que escribió. El código tiene 32 "
            "letras y números (a veces con guiones), como 3f2b9c1e-4d5a-4e6f-8a7b-0c1d2e3f4a5b."
        )
    respuesta = render(request, PLANTILLA, contexto)
    respuesta["X-Robots-Tag"] = "noindex"
    return respuesta


@csrf_exempt  # read-only page: other methods get a plain 405, never a CSRF error
@require_safe
def pagina_verificacion(request: HttpRequest, token: str) -> HttpResponse:
    """GET /presupuesto/verificar/<token>: valid, annulled or not found, for people."""
    # A trailing slash (or spaces) that a reader or a person added is not part of the code.
    token = token.strip().rstrip("/").strip()
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
    datos = verificacion_para_personas(token)
    if datos is None:
        contexto: dict[str, Any] = {"estado": "no_encontrada", "codigo": token[:80]}
        status = 404
    else:
        contexto = {
            "estado": "anulada" if datos["anulada"] else "valida",
            "datos": datos,
            "filas": filas_documento(datos["documento"]),
            "codigo": token,
        }
        status = 200
    contexto["zona"] = _zona()
    contexto["consultado_en"] = hora_local(timezone.now())
    respuesta = render(request, PLANTILLA, contexto, status=status)
    _cabeceras(respuesta, CABECERAS)
    if uso is not None:
        _cabeceras(respuesta, cabeceras(uso))
    return respuesta
