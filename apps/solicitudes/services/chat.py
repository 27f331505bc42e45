"""The request chat."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from apps.solicitudes.errores import SolicitudNoEncontrada
from apps.solicitudes.models import Comentario, Solicitud
from apps.solicitudes.models.bandeja import usuario_valido
from apps.solicitudes.services.validacion import MAX_COMENTARIO, validar_texto


def puede_comentar(*, solicitud: Solicitud, autor) -> bool:
    """The rule of `comentar`: an active person who can see the request (a page offers the
    comment box from it)."""
    return usuario_valido(autor) and (
        Solicitud.objects.visibles_para(autor).filter(pk=solicitud.pk).exists()
    )


def validar_comentario(*, solicitud: Solicitud, autor, texto: str) -> str:
    """Everything `comentar` checks, without writing: the cleaned text (for a preview)."""
    texto = validar_texto(texto, "texto", minimo=1, maximo=MAX_COMENTARIO)
    if not puede_comentar(solicitud=solicitud, autor=autor):
        raise SolicitudNoEncontrada("La solicitud no existe o no está disponible.")
    return texto


def comentar(*, solicitud: Solicitud, autor, texto: str) -> Comentario:
    """Post a chat message in the author's name; only someone who can see the request may.

    No history event: the chat is its own record, and the author becomes a participant.
    """
    with transaction.atomic():
        texto = validar_comentario(solicitud=solicitud, autor=autor, texto=texto)
        ahora = timezone.now()
        comentario = Comentario.objects.create(
            solicitud_id=solicitud.pk, autor=autor, creado_en=ahora, texto=texto
        )
        Solicitud.objects.filter(pk=solicitud.pk).update(fecha_actualizacion=ahora)
    return comentario
