"""POST /notificaciones/api/public/v1/contacto: the public website contact form."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request

from apps.notificaciones import selectors, services
from apps.notificaciones.models import SitioContacto
from hub.busqueda.texto import limpiar, recortar
from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.http.ip import ip_cliente
from hub.http.serializadores import Estricto
from hub.openapi import componentes as c
from hub.openapi import documentar as d

logger = logging.getLogger(__name__)

CAMPO_TRAMPA = "sitio_web"
MENSAJE_RECIBIDO = "Recibimos su mensaje. Le responderemos al correo indicado."
SITIO_NO_RECONOCIDO = "Sitio no reconocido."
_SURROGADOS = re.compile("[\ud800-\udfff]")


class Texto(serializers.CharField):
    """Text people wrote: invisible characters removed before the length checks."""

    def __init__(self, *, una_linea: bool = False, **kwargs: Any):
        self.una_linea = una_linea
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        texto = super().to_internal_value(data)
        # Lone surrogates (valid in JSON escapes, not in UTF-8) would break the database encoding.
        texto = _SURROGADOS.sub("", limpiar(texto))
        if self.una_linea:
            texto = " ".join(texto.split())
        return texto.strip()


class Trampa(serializers.Field):
    """True when filled; accepts any JSON value so that its validation never tells a bot apart."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, str):
            return bool(data.strip())
        return data is not None

    def to_representation(self, value: Any) -> bool:
        return bool(value)


class EntradaContacto(Estricto):
    nombre = Texto(min_length=2, max_length=120, una_linea=True)
    correo = serializers.EmailField(max_length=150)
    asunto = Texto(min_length=3, max_length=150, una_linea=True)
    mensaje = Texto(min_length=10, max_length=5000)
    sitio = serializers.SlugField(max_length=40, error_messages={"invalid": SITIO_NO_RECONOCIDO})
    # Honeypot: hidden in the form, left empty by people, filled by bots.
    sitio_web = Trampa(required=False, allow_null=True)

    def validate_sitio(self, codigo: str) -> SitioContacto:
        """Only an active configured site: an arbitrary string never reaches the cache keys."""
        sitio = selectors.sitio_activo(codigo)
        if sitio is None:
            raise serializers.ValidationError(SITIO_NO_RECONOCIDO)
        return sitio


class Recibo(serializers.Serializer):
    """`data` of an accepted contact message: a reference to quote and the time of receipt."""

    referencia = serializers.RegexField(r"^CT-[0-9A-HJKMNP-TV-Z]{10}$")
    recibido_en = serializers.DateTimeField()


class ContactoAPI(VistaPublica):
    """Receive one contact message (public, limited per IP and site, fails closed)."""

    http_method_names = ["post"]
    # A body to read: the parser follows Content-Type (415 otherwise), and Accept must admit JSON.
    content_negotiation_class = DefaultContentNegotiation
    salida = Recibo()  # shapes a dict, keeps no state: one instance serves every request

    @d.documentar(
        operation_id="contacto",
        summary="Mensaje del formulario de contacto",
        description="Recibe un mensaje del sitio web `sitio` (un sitio activo configurado). "
        "Límites por IP y sitio: 3 cada 10 minutos y 20 por día; sin caché compartida responde "
        "503 (falla cerrado). El campo trampa `sitio_web` debe ir vacío. Otros métodos: 405.",
        tags=["Contacto"],
        auth=[],
        request=EntradaContacto,
        parametros=[
            *d.limite_endpoint([201, 429]),
            d.cabecera("X-RateLimit-Limit-Dia", "Mensajes por día.", [201, 429], tipo=d.ENTERO),
            d.cabecera(
                "X-RateLimit-Remaining-Dia", "Mensajes restantes hoy.", [201, 429], tipo=d.ENTERO
            ),
        ],
        respuestas={
            201: OpenApiResponse(
                c.sobre("SobreRecibo", Recibo(), "The receipt in the envelope."),
                description="Mensaje recibido (o descartado en silencio si trae el campo trampa).",
            ),
            400: d.error("El cuerpo no es JSON válido (`JSON_INVALIDO`).", 400),
            406: d.error("Accept no admite application/json.", 406),
            415: d.error("El cuerpo no es application/json.", 415),
            422: d.error("Datos inválidos; ver error.campos.", 422),
            503: d.error("No es posible contar el límite ahora (caché caída).", 503),
        },
        examples=[
            OpenApiExample(
                "mensaje",
                value={
                    "nombre": "Ana Pérez",
                    "correo": "ana@example.org",
                    "asunto": "Consulta sobre un trámite",
                    "mensaje": "Quisiera saber el estado de mi solicitud.",
                    "sitio": "portal",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> HttpResponse:
        entrada = EntradaContacto(data=request.data)
        entrada.is_valid(raise_exception=True)
        datos = entrada.validated_data
        sitio = datos["sitio"]
        ip = ip_cliente(request)
        # Counted before the honeypot check: a bot gets the same answers and limits as a person.
        cuota = services.consumir_cuota(sitio=sitio, ip=ip)
        if datos.get(CAMPO_TRAMPA):
            logger.info("contacto descartado (campo trampa) sitio=%s ip=%s", sitio.codigo, ip)
            recibo = services.simular_recibo()
        else:
            mensaje = services.recibir_mensaje(
                sitio=sitio,
                nombre=datos["nombre"],
                correo=datos["correo"],
                asunto=datos["asunto"],
                mensaje=datos["mensaje"],
                ip=ip,
                user_agent=recortar(request.META.get("HTTP_USER_AGENT", ""), 300),
            )
            recibo = services.Recibo(mensaje.referencia, mensaje.recibido_en)
        return respuestas.ok(
            self.salida.to_representation(recibo.como_dict()),
            MENSAJE_RECIBIDO,
            status=201,
            headers=cuota.cabeceras(),
        )
