"""GET /metricas/: the Prometheus text format, for the operators' scraper only.

Who may read it (docs/despliegue.md, «Métricas»): when HUB_METRICAS_REDES is set, only clients
from those networks (403 otherwise); when HUB_METRICAS_TOKEN is set, only a request with
`Authorization: Bearer <token>` (401 otherwise, compared in constant time); both set, both
needed. Neither set: loopback only outside production, and in production nobody (404): nothing is
open by default.
"""

from __future__ import annotations

import hmac
import ipaddress
import os

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from hub.http.ip import direccion, ip_cliente
from hub.observabilidad import metricas_carpeta

LOCALES = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


def _texto(estado: int, texto: str, **cabeceras: str) -> HttpResponse:
    return HttpResponse(
        texto + "\n",
        status=estado,
        content_type="text/plain; charset=utf-8",
        headers={"Cache-Control": "no-store", **cabeceras},
    )


def _token_valido(request: HttpRequest, esperado: str) -> bool:
    esquema, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    # Both sides as bytes: compare_digest refuses non-ASCII text, and a header may carry any.
    return esquema.lower() == "bearer" and hmac.compare_digest(
        token.strip().encode("utf-8", "surrogateescape"), esperado.encode("utf-8")
    )


def rechazo(request: HttpRequest) -> HttpResponse | None:
    """The refusal for this request, or None when it may read the metrics."""
    redes = settings.HUB_METRICAS_REDES
    token = settings.HUB_METRICAS_TOKEN
    if not redes and not token:
        if settings.HUB_PRODUCCION:
            raise Http404
        redes = LOCALES
    if redes:
        cliente = direccion(ip_cliente(request))
        if cliente is None or not any(cliente in red for red in redes):
            return _texto(403, "Esta dirección no puede leer las métricas.")
    if token and not _token_valido(request, token):
        return _texto(
            401,
            "Envíe el token de métricas: Authorization: Bearer <HUB_METRICAS_TOKEN>.",
            **{"WWW-Authenticate": 'Bearer realm="metricas"'},
        )
    return None


def exposicion() -> bytes:
    """Every worker's values added up (multiprocess mode), or this process's own."""
    carpeta = os.environ.get(metricas_carpeta.VARIABLE)
    if not carpeta:
        return generate_latest(REGISTRY)
    recolectores = CollectorRegistry()
    multiprocess.MultiProcessCollector(recolectores, path=carpeta)
    with metricas_carpeta.candado(carpeta, exclusivo=False):
        return generate_latest(recolectores)


@require_safe
def vista_metricas(request: HttpRequest) -> HttpResponse:
    """The metrics, to whoever the settings allow."""
    negada = rechazo(request)
    if negada is not None:
        return negada
    return HttpResponse(
        exposicion(), content_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"}
    )
