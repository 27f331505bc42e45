"""Public verification of a signature by the code printed in its QR (JSON envelope)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from apps.firmas.selectors import resumen_verificacion
from hub import respuestas
from hub.limites import Regla, limitar
from hub.models import Limites

# One bucket per IP shared by the API and the human page.
REGLA_VERIFICACION = Regla(
    grupo="firmas-verificacion",
    limite=lambda: Limites.cargar().verificacion_por_minuto,
    ventana=60,
)
# The answer changes when a signature is annulled: no cache may keep an old "valid".
SIN_CACHE = {"Cache-Control": "no-store"}
MENSAJE_VALIDA = "Firma válida."
MENSAJE_ANULADA = "La firma fue anulada."
DETALLE_NO_ENCONTRADA = "No existe una firma con ese código de verificación."


@csrf_exempt  # public and read-only: any other method must get the 405 envelope, not a CSRF page
@respuestas.metodos("GET")
@limitar(REGLA_VERIFICACION)
def verificar(request: HttpRequest, token: str) -> HttpResponse:
    """GET .../firmas/verificar/<token> and its PAA alias."""
    datos = resumen_verificacion(token)
    if datos is None:
        return respuestas.error(
            404, "FIRMA_NO_ENCONTRADA", DETALLE_NO_ENCONTRADA, headers=SIN_CACHE
        )
    mensaje = MENSAJE_ANULADA if datos["anulada"] else MENSAJE_VALIDA
    return respuestas.ok(datos, mensaje, headers=SIN_CACHE)
