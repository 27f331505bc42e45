"""Public verification of a signature by the code printed in its QR (JSON envelope)."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request

from apps.firmas.selectors import llaves_verificacion, verificacion
from apps.firmas.serializers import Verificacion
from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.http.limites import Regla
from hub.models import Limites
from hub.openapi import componentes as c
from hub.openapi import documentar as d

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


def documentar_verificacion(operation_id: str, resumen: str, extra: str = ""):
    """The schema of both verification routes (the PAA alias answers exactly the same)."""
    return d.documentar(
        operation_id=operation_id,
        summary=resumen,
        description="Verificación pública de una firma por su código. message es 'Firma válida.' "
        "o 'La firma fue anulada.' (ambas 200). Límite: 60 por minuto por IP. Otros métodos: 405 "
        "`METODO_NO_PERMITIDO`." + extra,
        tags=["Firmas"],
        auth=[],
        parametros=[
            OpenApiParameter(
                "token",
                {"type": "string", "format": "uuid"},
                d.PATH,
                description="Código impreso en el QR del documento firmado.",
            ),
            d.cabecera(
                "Cache-Control",
                "La respuesta cambia si la firma se anula.",
                [200, 404],
                tipo=d.NO_STORE,
                requerida=True,
            ),
            *d.limite_endpoint([200, 404, 429]),
        ],
        respuestas={
            200: OpenApiResponse(
                c.sobre(
                    "SobreVerificacion",
                    Verificacion(),
                    "The verification in the envelope; message 'Firma válida.' or 'La firma fue "
                    "anulada.'.",
                ),
                description="La firma existe (válida o anulada).",
            ),
            404: OpenApiResponse(
                c.SobreError,
                description="Ninguna firma tiene ese código. Código: `FIRMA_NO_ENCONTRADA`.",
            ),
        },
    )


class VerificarFirmaAPI(VistaPublica):
    """GET .../firmas/verificar/<token>: the signature and its document, valid or annulled."""

    reglas = (REGLA_VERIFICACION,)
    salida = Verificacion()  # shapes a dict, keeps no state: one instance serves every request

    @classmethod
    def lecturas(cls, request, token: str = "", **kwargs) -> list[str]:
        return llaves_verificacion(token)

    @documentar_verificacion("firma_verificar", "Verificar una firma")
    def get(self, request: Request, token: str) -> HttpResponse:
        datos = verificacion(token)
        if datos is None:
            raise respuestas.ErrorAPI(
                404, "FIRMA_NO_ENCONTRADA", DETALLE_NO_ENCONTRADA, headers=SIN_CACHE
            )
        mensaje = MENSAJE_ANULADA if datos["anulada"] else MENSAJE_VALIDA
        return respuestas.ok(self.salida.to_representation(datos), mensaje, headers=SIN_CACHE)


class VerificarFirmaPaaAPI(VerificarFirmaAPI):
    """GET .../paa/firmas/verificar/<token>: the PAA alias, identical answers."""

    @documentar_verificacion(
        "firma_verificar_paa", "Verificar una firma (alias PAA)", " Alias de /firmas/verificar."
    )
    def get(self, request: Request, token: str) -> HttpResponse:
        return super().get(request, token)
