"""Request bodies sent with `Transfer-Encoding: chunked`, read within HUB_MAX_CUERPO.

Django reads exactly CONTENT_LENGTH bytes of `wsgi.input`, and a chunked request has no
Content-Length, so its body looked empty (a valid JSON-RPC ping got -32700). The WSGI server
(gunicorn) de-chunks `wsgi.input` and ends it after the last chunk: read at most one byte past the
limit, then hand Django the body with its real length. A server that does not de-chunk (Django's
runserver) gives an empty stream, as before.
"""

from __future__ import annotations

import io

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse

from hub import respuestas


def _es_chunked(request: HttpRequest) -> bool:
    codificacion = request.META.get("HTTP_TRANSFER_ENCODING", "")
    # Content-Length and chunked together are refused by the server (request smuggling).
    return codificacion.rsplit(",", 1)[-1].strip().lower() == "chunked" and not request.META.get(
        "CONTENT_LENGTH"
    )


def leer(request: HttpRequest) -> HttpResponse | None:
    """Make a chunked body readable like any other; a 413 answer when it is too large."""
    if not _es_chunked(request):
        return None
    maximo = settings.HUB_MAX_CUERPO
    cuerpo = request.environ["wsgi.input"].read(maximo + 1)
    if len(cuerpo) > maximo:
        detalle = f"El cuerpo supera el máximo de {maximo} bytes."
        if respuestas.es_ruta_api(request.path):
            return respuestas.error(413, detalle=detalle)
        return HttpResponse(detalle, status=413, content_type="text/plain; charset=utf-8")
    request.META["CONTENT_LENGTH"] = str(len(cuerpo))
    request._stream = LimitedStream(io.BytesIO(cuerpo), len(cuerpo))
    return None
