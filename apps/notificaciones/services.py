"""Writes of the contact form: the per-IP-and-site quota, storing a message, forwarding it."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.notificaciones.models import MensajeContacto, SitioContacto
from hub.http.ip import red_de
from hub.http.limites import CacheNoDisponible, Uso, contar
from hub.http.respuestas import ErrorAPI
from hub.models import Limites

logger = logging.getLogger(__name__)

GRUPO_10_MINUTOS = "contacto-10m"
GRUPO_DIA = "contacto-dia"
VENTANA_10_MINUTOS = 10 * 60
VENTANA_DIA = 24 * 60 * 60

# Crockford base32: no I, L, O, U, so a reference read aloud or copied by hand stays unambiguous.
_ALFABETO = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@dataclass(frozen=True)
class Recibo:
    """What the sender gets back: a reference to quote and the time of receipt (never the text)."""

    referencia: str
    recibido_en: datetime

    def como_dict(self) -> dict[str, str]:
        return {
            "referencia": self.referencia,
            "recibido_en": timezone.localtime(self.recibido_en).isoformat(timespec="seconds"),
        }


@dataclass(frozen=True)
class Cuota:
    """The two windows of the contact limit after counting one message."""

    corta: Uso
    dia: Uso

    def ajustada(self) -> Uso:
        """The tightest window: fewest messages left (the 10-minute one on a tie)."""
        return self.dia if self.dia.restante < self.corta.restante else self.corta

    def cabeceras(self) -> dict[str, str]:
        ajustada = self.ajustada()
        return {
            "X-RateLimit-Limit": str(ajustada.limite),
            "X-RateLimit-Remaining": str(ajustada.restante),
            "X-RateLimit-Limit-Dia": str(self.dia.limite),
            "X-RateLimit-Remaining-Dia": str(self.dia.restante),
        }


def nueva_referencia() -> str:
    """`CT-` plus 10 random base32 characters (50 bits): unguessable and not a counter."""
    return "CT-" + "".join(secrets.choice(_ALFABETO) for _ in range(10))


def _rechazo(cuota: Cuota, excedidas: list[Uso]) -> ErrorAPI:
    """429 RATE_LIMIT naming the window that holds the client back longest."""
    freno = max(excedidas, key=lambda u: u.reintentar_en)
    return ErrorAPI(
        429,
        detalle="Ha enviado demasiados mensajes desde este sitio. Intente de nuevo más tarde.",
        headers={
            "X-RateLimit-Limit": str(freno.limite),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Limit-Dia": str(cuota.dia.limite),
            "X-RateLimit-Remaining-Dia": str(cuota.dia.restante),
            "Retry-After": str(freno.reintentar_en),
        },
    )


def consumir_cuota(*, sitio: SitioContacto, ip: str) -> Cuota:
    """Count one message for (site, client) in both windows, or refuse it.

    A refused message (429) does not consume quota: the counters are read first and only
    incremented when both windows have room; a second check catches concurrent senders.
    Raises ErrorAPI 429 when over a limit and 503 when the cache cannot count (fails closed).
    """
    limites = Limites.cargar()
    # The key holds only the site's primary key and a parsed address: nothing a client can shape.
    clave = f"{sitio.pk}:{red_de(ip)}"
    ventanas = (
        (GRUPO_10_MINUTOS, limites.contacto_por_10_minutos, VENTANA_10_MINUTOS),
        (GRUPO_DIA, limites.contacto_por_dia, VENTANA_DIA),
    )

    def leer(incrementar: bool) -> Cuota:
        corta, dia = (
            contar(grupo=g, clave=clave, limite=n, ventana=v, incrementar=incrementar)
            for g, n, v in ventanas
        )
        return Cuota(corta=corta, dia=dia)

    try:
        vista = leer(incrementar=False)
        llenas = [u for u in (vista.corta, vista.dia) if u.usados >= u.limite]
        if llenas:
            raise _rechazo(vista, llenas)
        cuota = leer(incrementar=True)
    except CacheNoDisponible:
        logger.error("cache no disponible: mensaje de contacto rechazado (falla cerrado)")
        raise ErrorAPI(
            503, detalle="No es posible recibir mensajes en este momento. Intente más tarde."
        ) from None
    excedidas = [u for u in (cuota.corta, cuota.dia) if u.excedido]
    if excedidas:
        raise _rechazo(cuota, excedidas)
    return cuota


def recibir_mensaje(
    *,
    sitio: SitioContacto,
    nombre: str,
    correo: str,
    asunto: str,
    mensaje: str,
    ip: str,
    user_agent: str,
) -> MensajeContacto:
    """Store a message and, once committed, forward it to the site's address if it has one."""
    with transaction.atomic():
        contacto = MensajeContacto.objects.create(
            referencia=nueva_referencia(),
            sitio=sitio,
            nombre=nombre,
            correo=correo,
            asunto=asunto,
            mensaje=mensaje,
            ip=ip,
            user_agent=user_agent,
            recibido_en=timezone.now(),
        )
        if sitio.correo_destino:

            def reenviar() -> None:
                reenviar_por_correo(contacto)

            # robust: a failure after commit is logged, never turned into the sender's 500.
            # (A named function, not a partial: Django logs the callback's __qualname__.)
            transaction.on_commit(reenviar, robust=True)
    return contacto


def simular_recibo() -> Recibo:
    """The receipt a honeypot-filling bot gets: same shape as a real one, nothing stored."""
    return Recibo(referencia=nueva_referencia(), recibido_en=timezone.now())


def _una_linea(texto: str) -> str:
    return " ".join(texto.split())


def reenviar_por_correo(contacto: MensajeContacto) -> bool:
    """Send the message to its site's address; a mail failure is logged and the message kept."""
    sitio = contacto.sitio
    if not sitio.correo_destino:
        return False
    recibido = timezone.localtime(contacto.recibido_en).strftime("%Y-%m-%d %H:%M")
    cuerpo = "\n".join(
        [
            f"Nuevo mensaje del formulario de contacto de «{sitio.nombre}».",
            "",
            f"Referencia: {contacto.referencia}",
            f"Recibido: {recibido} (hora local)",
            f"Nombre: {contacto.nombre}",
            f"Correo: {contacto.correo}",
            f"Asunto: {contacto.asunto}",
            "",
            "Mensaje:",
            contacto.mensaje,
            "",
            "--",
            "Responda a este correo para contestar directamente a quien escribió.",
            "El texto es del remitente: no siga enlaces ni instrucciones sin verificarlos.",
        ]
    )
    correo = EmailMessage(
        subject=_una_linea(f"[Contacto · {sitio.nombre}] {contacto.asunto}"),
        body=cuerpo,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[sitio.correo_destino],
        reply_to=[contacto.correo],
    )
    try:
        correo.send(fail_silently=False)
    except Exception:
        logger.exception("no se pudo reenviar por correo el mensaje %s", contacto.referencia)
        return False
    MensajeContacto.objects.filter(pk=contacto.pk).update(correo_enviado_en=timezone.now())
    return True


def marcar_leidos(*, mensajes: QuerySet[MensajeContacto]) -> int:
    """Mark messages as read; returns how many changed."""
    with transaction.atomic():
        return MensajeContacto.objects.filter(pk__in=mensajes.values("pk"), leido=False).update(
            leido=True
        )


def marcar_atendidos(*, mensajes: QuerySet[MensajeContacto], por: AbstractBaseUser) -> int:
    """Mark messages as attended by `por` (and read); already attended ones keep who and when."""
    with transaction.atomic():
        return MensajeContacto.objects.filter(pk__in=mensajes.values("pk"), atendido=False).update(
            atendido=True, atendido_en=timezone.now(), atendido_por=por, leido=True
        )
