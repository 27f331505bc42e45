"""POST /notificaciones/api/public/v1/contacto: the public website contact form."""

from __future__ import annotations

import logging
import re
from typing import Any

from rest_framework import serializers
from rest_framework.views import APIView

from apps.notificaciones import selectors, services
from apps.notificaciones.models import SitioContacto
from hub import respuestas
from hub.ip import ip_cliente
from hub.serializadores import Estricto
from hub.texto import limpiar, recortar

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


class ContactoAPI(APIView):
    """Receive one contact message (public, limited per IP and site, fails closed)."""

    http_method_names = ["post"]

    def post(self, request):
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
            recibo.como_dict(), MENSAJE_RECIBIDO, status=201, headers=cuota.cabeceras()
        )
