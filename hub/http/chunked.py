"""Request bodies sent with `Transfer-Encoding: chunked`, read within HUB_MAX_CUERPO.

Django reads exactly CONTENT_LENGTH bytes of `wsgi.input`, and a chunked request has no
Content-Length, so its body looked empty (a valid JSON-RPC ping got -32700). The WSGI server
(gunicorn) de-chunks `wsgi.input` and ends it after the last chunk: read at most one byte past the
limit, then hand Django the body with its real length. A server that does not de-chunk (Django's
runserver) gives an empty stream, as before.

A broken framing (a chunk size that is not hexadecimal, a chunk without its CRLF, a body cut off
before its last chunk) is the client's fault, found here before any JSON exists: 400, never the
500 and the traceback of an exception escaping the middleware.
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from gunicorn.http.errors import ParseException

from hub.http import respuestas

logger = logging.getLogger(__name__)

# The WSGI environ's key of a refused chunked body: (status, detalle), answered by the middleware.
RECHAZO = "hub.rechazo_por_partes"
MAL_FORMADO = (
    "El cuerpo enviado por partes (Transfer-Encoding: chunked) está mal formado o llegó incompleto."
)


def _es_chunked(environ: dict) -> bool:
    codificacion = environ.get("HTTP_TRANSFER_ENCODING", "")
    # Content-Length and chunked together are refused by the server (request smuggling).
    return codificacion.rsplit(",", 1)[-1].strip().lower() == "chunked" and not environ.get(
        "CONTENT_LENGTH"
    )


def _leer(environ: dict, cuantos: int) -> bytes:
    """Up to `cuantos` bytes of the body, within HUB_ESPERA_CUERPO seconds (gunicorn's timeout
    would kill the worker and answer a bare 500): past them the reading side of the connection is
    shut, and the read ends as if the client had closed, however slowly it was still sending."""
    entrada = environ["wsgi.input"]
    conexion = environ.get("gunicorn.socket")
    if conexion is None:  # another server (runserver, the test client): no socket to bound
        return entrada.read(cuantos)
    vencido = threading.Event()
    plazo = threading.Timer(settings.HUB_ESPERA_CUERPO, _dejar_de_leer, [conexion, vencido])
    plazo.daemon = True
    plazo.start()
    try:
        return entrada.read(cuantos)
    except (ParseException, OSError):
        if vencido.is_set():
            raise TimeoutError from None  # the log says why: the wait ran out, not the client
        raise
    finally:
        plazo.cancel()


def _dejar_de_leer(conexion: socket.socket, vencido: threading.Event) -> None:
    """Wake the worker blocked reading the body: its read returns end of data (the answer can
    still be written)."""
    vencido.set()
    with contextlib.suppress(OSError):  # already closed: nothing to wake
        conexion.shutdown(socket.SHUT_RD)


def _respuesta(request: HttpRequest, status: int, detalle: str) -> HttpResponse:
    if respuestas.es_ruta_api(request.path):
        return respuestas.error(status, detalle=detalle)
    return HttpResponse(detalle, status=status, content_type="text/plain; charset=utf-8")


def leer(environ: dict) -> None:
    """Make a chunked body readable like any other: the body, read within the limit and the wait,
    becomes `wsgi.input` with its real CONTENT_LENGTH. One too large or broken is left unread,
    with (status, detalle) under `RECHAZO` for `rechazo()` to answer."""
    if not _es_chunked(environ):
        return
    maximo = settings.HUB_MAX_CUERPO
    try:
        cuerpo = _leer(environ, maximo + 1)
    except (ParseException, OSError) as exc:
        # gunicorn's framing errors, NoMoreData (the client closed), a timeout or a reset. The
        # class only: the exception's text may quote bytes of the body.
        logger.info("cuerpo por partes ilegible: %s", type(exc).__name__)
        environ[RECHAZO] = (400, MAL_FORMADO)
        return
    if len(cuerpo) > maximo:
        environ[RECHAZO] = (413, f"El cuerpo supera el máximo de {maximo} bytes.")
        return
    environ["wsgi.input"] = io.BytesIO(cuerpo)
    environ["CONTENT_LENGTH"] = str(len(cuerpo))


def rechazo(request: HttpRequest) -> HttpResponse | None:
    """The answer to a chunked body `leer` refused (None when there was none)."""
    motivo = request.environ.get(RECHAZO)
    return None if motivo is None else _respuesta(request, *motivo)


class PorPartes:
    """WSGI middleware around Django's handler (hub.wsgi): the body is de-chunked before Django
    builds its request, which reads CONTENT_LENGTH bytes of `wsgi.input` and no more."""

    def __init__(self, aplicacion: Callable) -> None:
        self.aplicacion = aplicacion

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        leer(environ)
        return self.aplicacion(environ, start_response)
