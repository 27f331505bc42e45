"""Word of new access: one e-mail to the person when an application is connected to their
account or a personal token is created in their name (as GitHub sends for new OAuth apps and
tokens). Its name, when, the address and browser it came from, and where to cut it off; never a
secret. Queued on the request (apps.cuentas.correo): it leaves after the answer."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.http import HttpRequest
from django.template import loader
from django.urls import reverse
from django.utils import timezone

from apps.cuentas import correo
from apps.cuentas.models import User
from apps.marca import selectors
from hub.busqueda.texto import recortar
from hub.http.ip import ip_cliente

MAX_NAVEGADOR = 120
# Where each kind of access is cut off on the profile.
ANCLAS = {"aplicacion": "#aplicaciones", "token": "#asistente"}


def navegador(request: HttpRequest) -> str:
    """The User-Agent, cleaned and shortened (it is whatever the client wrote)."""
    return recortar(request.META.get("HTTP_USER_AGENT", ""), MAX_NAVEGADOR) or "desconocido"


def avisar_acceso_nuevo(
    request: HttpRequest,
    *,
    usuario: User,
    tipo: Literal["aplicacion", "token"],
    nombre: str,
    cuando: datetime | None = None,
) -> bool:
    """Queue the notice of one new access; False when the person has no address to write to."""
    if not usuario.email or not usuario.is_active:
        return False
    marca = selectors.marca_publica().datos
    contexto = {
        "usuario": usuario,
        "tipo": tipo,
        "nombre": recortar(nombre, 100),
        "cuando": timezone.localtime(cuando or timezone.now()),
        "ip": ip_cliente(request),
        "navegador": navegador(request),
        "enlace": settings.HUB_URL_PUBLICA + reverse("cuentas:perfil") + ANCLAS[tipo],
        "nombre_marca": marca["nombre"],
    }
    asunto = loader.render_to_string("cuentas/correo_acceso_nuevo_asunto.txt", contexto)
    mensaje = EmailMultiAlternatives(
        "".join(asunto.splitlines()),
        loader.render_to_string("cuentas/correo_acceso_nuevo.txt", contexto),
        to=[usuario.email],
    )
    correo.encolar(request, mensaje)
    return True
