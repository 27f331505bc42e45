"""Mail of the sign-in pages leaves after the answer, off the worker (issue 23 items 4 and 5).

A view queues its messages on the request (`encolar`); the wrapper of the view (`tras_responder`)
hands them to the response, which passes them on when the WSGI server closes it, once the answer's
bytes went out. They are then sent by one thread of the process (`HUB_CORREO_EN_SEGUNDO_PLANO`,
on by default), so the worker is free for the next request at once: how long a mail server takes
can be read neither from the answer's time nor from how busy the worker stays after it. A message
for nobody (the reset of an unknown address) goes through the same layer as a real one: Django's
`EmailMessage.send` drops a message without recipients before it opens a connection.

The thread is started on first use in each process (so also after a fork) and drained when the
process exits normally (gunicorn's graceful stop and recycling); a worker killed with SIGKILL loses
what it had not sent, as it would have lost a send in the middle of a request.
"""

from __future__ import annotations

import atexit
import functools
import logging
import os
import queue
import threading
from collections.abc import Callable

from django.conf import settings
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

_PENDIENTES = "_hub_correo_pendiente"
_ESPERA_AL_SALIR = 15  # seconds the exit waits for the queue (EMAIL_TIMEOUT is 10 by default)


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


class _Repartidor:
    """One thread per process that sends what the answers left behind, in order."""

    def __init__(self) -> None:
        self._candado = threading.Lock()
        self._pid: int | None = None
        self._cola: queue.Queue[list[EmailMessage] | None] = queue.Queue()
        self._hilo: threading.Thread | None = None

    def _trabajar(self, cola: queue.Queue) -> None:
        while (mensajes := cola.get()) is not None:
            try:
                _enviar(mensajes)
            finally:
                cola.task_done()
        cola.task_done()

    def poner(self, mensajes: list[EmailMessage]) -> None:
        with self._candado:
            if self._pid != os.getpid() or self._hilo is None or not self._hilo.is_alive():
                # First use here, or a forked child: the parent's thread did not come along.
                self._pid = os.getpid()
                self._cola = queue.Queue()
                self._hilo = threading.Thread(
                    target=self._trabajar, args=(self._cola,), name="hub-correo", daemon=True
                )
                self._hilo.start()
            self._cola.put(mensajes)

    def esperar(self, tiempo: float | None = None) -> None:
        """Block until everything queued so far was sent (tests; the exit)."""
        with self._candado:
            cola, hilo = self._cola, self._hilo
        if hilo is None or self._pid != os.getpid():
            return
        if tiempo is None:
            cola.join()
            return
        hecho = threading.Thread(target=cola.join, daemon=True)
        hecho.start()
        hecho.join(tiempo)

    def cerrar(self) -> None:
        """At exit: send what is left (bounded), then stop the thread."""
        if self._hilo is None or self._pid != os.getpid() or not self._hilo.is_alive():
            return
        self._cola.put(None)
        self._hilo.join(_ESPERA_AL_SALIR)


repartidor = _Repartidor()
atexit.register(repartidor.cerrar)


def _despachar(mensajes: list[EmailMessage]) -> None:
    if settings.HUB_CORREO_EN_SEGUNDO_PLANO:
        repartidor.poner(mensajes)
    else:
        _enviar(mensajes)


def entregar(request: HttpRequest, respuesta: HttpResponse) -> HttpResponse:
    """Attach the request's queued messages to the response: they leave when the server closes
    it (by the mail thread, or right there with HUB_CORREO_EN_SEGUNDO_PLANO off)."""
    pendientes = request.__dict__.pop(_PENDIENTES, [])
    if not pendientes:
        return respuesta
    cerrar = respuesta.close

    def despachar_y_cerrar() -> None:
        # The WSGI server calls close() once the last byte was written (PEP 3333); Django's own
        # close() then runs as before, whatever happened to the mail.
        try:
            _despachar(pendientes)
        except Exception:
            logger.exception("no se pudo entregar el correo a su hilo")
        finally:
            cerrar()

    respuesta.close = despachar_y_cerrar
    return respuesta


def tras_responder(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a view: the messages it queued leave after its answer."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return entregar(request, vista(request, *args, **kwargs))

    return envuelta
