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

import io
import logging
import time

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse
from gunicorn.http.errors import ParseException

from hub import respuestas

logger = logging.getLogger(__name__)

# One read of wsgi.input at a time: between two, the time left to wait is set again.
PASO = 64 * 1024
MAL_FORMADO = (
    "El cuerpo enviado por partes (Transfer-Encoding: chunked) está mal formado o llegó incompleto."
)


def _es_chunked(request: HttpRequest) -> bool:
    codificacion = request.META.get("HTTP_TRANSFER_ENCODING", "")
    # Content-Length and chunked together are refused by the server (request smuggling).
    return codificacion.rsplit(",", 1)[-1].strip().lower() == "chunked" and not request.META.get(
        "CONTENT_LENGTH"
    )


def _leer(environ: dict, cuantos: int) -> bytes:
    """Up to `cuantos` bytes of the body; TimeoutError when the client stops sending for longer
    than HUB_ESPERA_CUERPO (gunicorn's timeout would kill the worker and answer a bare 500)."""
    entrada = environ["wsgi.input"]
    conexion = environ.get("gunicorn.socket")
    if conexion is None:  # another server (runserver, the test client): no socket to bound
        return entrada.read(cuantos)
    antes = conexion.gettimeout()
    limite = time.monotonic() + settings.HUB_ESPERA_CUERPO
    partes: list[bytes] = []
    leidos = 0
    try:
        while leidos < cuantos:
            restante = limite - time.monotonic()
            if restante <= 0:
                raise TimeoutError
            conexion.settimeout(restante)
            parte = entrada.read(min(PASO, cuantos - leidos))
            if not parte:
                break
            partes.append(parte)
            leidos += len(parte)
    finally:
        conexion.settimeout(antes)  # the answer is written without our bound
    return b"".join(partes)


def _respuesta(request: HttpRequest, status: int, detalle: str) -> HttpResponse:
    if respuestas.es_ruta_api(request.path):
        return respuestas.error(status, detalle=detalle)
    return HttpResponse(detalle, status=status, content_type="text/plain; charset=utf-8")


def leer(request: HttpRequest) -> HttpResponse | None:
    """Make a chunked body readable like any other; a 413 answer when it is too large, a 400
    one when its framing is broken or it stops arriving."""
    if not _es_chunked(request):
        return None
    maximo = settings.HUB_MAX_CUERPO
    try:
        cuerpo = _leer(request.environ, maximo + 1)
    except (ParseException, OSError) as exc:
        # gunicorn's framing errors, NoMoreData (the client closed), a timeout or a reset. The
        # class only: the exception's text may quote bytes of the body.
        logger.info("cuerpo por partes ilegible: %s", type(exc).__name__)
        return _respuesta(request, 400, MAL_FORMADO)
    if len(cuerpo) > maximo:
        return _respuesta(request, 413, f"El cuerpo supera el máximo de {maximo} bytes.")
    request.META["CONTENT_LENGTH"] = str(len(cuerpo))
    request._stream = LimitedStream(io.BytesIO(cuerpo), len(cuerpo))
    return None
