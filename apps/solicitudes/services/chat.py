"""The request chat."""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.solicitudes.errores import SolicitudCambio, SolicitudNoEncontrada
from apps.solicitudes.models import Comentario, Solicitud
from apps.solicitudes.models.bandeja import usuario_valido
from apps.solicitudes.services.ciclo import CAMBIO, bloquear
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


# A form's nonce: what nueva_clave_de_formulario() draws (secrets.token_urlsafe), bounded.
NONCE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
YA_PUBLICADO = CAMBIO.format(que="ese comentario ya quedó publicado y no se guardó otra vez.")


def comentar(*, solicitud: Solicitud, autor, texto: str, nonce: str | None = None) -> Comentario:
    """Post a chat message in the author's name; only someone who can see the request may.

    No history event: the chat is its own record, and the author becomes a participant. `nonce`:
    the single-use marker of the form it was written in; a form sent again (a double click) is
    refused with SolicitudCambio and stores nothing. None: a caller without a form (the tool,
    whose confirmation token is its own single-use marker).
    """
    if nonce is not None and not NONCE.match(str(nonce)):
        raise SolicitudCambio(CAMBIO.format(que="el formulario no es válido."))
    with transaction.atomic():
        texto = validar_comentario(solicitud=solicitud, autor=autor, texto=texto)
        if nonce is not None:
            # Two copies of one form queue here; the second then finds the first's comment.
            bloquear(solicitud)
            if Comentario.objects.filter(nonce=nonce).exists():
                raise SolicitudCambio(YA_PUBLICADO)
        ahora = timezone.now()
        try:
            with transaction.atomic():
                comentario = Comentario.objects.create(
                    solicitud_id=solicitud.pk,
                    autor=autor,
                    creado_en=ahora,
                    texto=texto,
                    nonce=nonce,
                )
        except IntegrityError:
            raise SolicitudCambio(YA_PUBLICADO) from None
        Solicitud.objects.filter(pk=solicitud.pk).update(fecha_actualizacion=ahora)
    return comentario
