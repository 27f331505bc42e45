"""Mail of the sign-in pages leaves after the answer (issue 23 items 4 and 5).

A view queues its messages on the request (`encolar`); the wrapper of the view (`tras_responder`)
hands them to the response, which sends them when the WSGI server closes it, once the answer's
bytes went out. How long a mail server takes can then not be read from the answer's time, and a
message for nobody (the reset of an unknown address) goes through the same layer as a real one:
Django's `EmailMessage.send` drops a message without recipients before it opens a connection.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

_PENDIENTES = "_hub_correo_pendiente"


def encolar(request: HttpRequest, mensaje: EmailMessage) -> None:
    """Hand a message to the mail layer: it leaves once this request's answer is sent."""
    request.__dict__.setdefault(_PENDIENTES, []).append(mensaje)


def _enviar(mensajes: list[EmailMessage]) -> None:
    """Send each message; a failure is logged (never the address) and the others still leave."""
    for mensaje in mensajes:
        try:
            mensaje.send()
        except Exception:
            # The subject says which mail it was; the recipient is personal data, never logged.
            logger.exception("no se pudo enviar el correo «%s»", mensaje.subject)


def entregar(request: HttpRequest, respuesta: HttpResponse) -> HttpResponse:
    """Attach the request's queued messages to the response: sent when the server closes it."""
    pendientes = request.__dict__.pop(_PENDIENTES, [])
    if pendientes:
        # HttpResponse.close() calls these after the last byte was written (and swallows their
        # exceptions silently, hence _enviar's own logging); Django closes FileResponse's files so.
        respuesta._resource_closers.append(functools.partial(_enviar, pendientes))
    return respuesta


def tras_responder(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a view: the messages it queued leave after its answer."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return entregar(request, vista(request, *args, **kwargs))

    return envuelta
