"""The floor (issue 24, item 9): the bare view plus what every endpoint of the hub must pay.

One shared limit counted in Redis with one pipeline (INCR and EXPIRE, one round trip, redis-py
directly), then the ping's envelope. `vista_suelo` is a plain Django view; `SueloDRF` is the same
work as a DRF `APIView` with the renderer, parser and empty authentication the hub configures
(bench/limite/settings.py, REST_FRAMEWORK). No hub middleware in either: what separates the hub's
rows from these is the hub's own work (docs/rendimiento.md, "Metas").
"""

from __future__ import annotations

import os
import time
from datetime import datetime

import redis
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

VENTANA = 60  # seconds, as the hub's global limit
LIMITE = 10**9  # never reached under the bench: the cost of counting is what is measured
PREFIJO = os.environ.get("HUB_CACHE_PREFIJO", "bench") + ":suelo"
# One client (and its connection pool) per worker, made at import like the hub's cache client.
_REDIS = redis.Redis.from_url(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")


def contar(request: HttpRequest) -> int:
    """This window's count for the caller's address, in one round trip (INCR + EXPIRE)."""
    ventana = int(time.time()) // VENTANA
    llave = f"{PREFIJO}:{request.META.get('REMOTE_ADDR', '')}:{ventana}"
    tubo = _REDIS.pipeline(transaction=False)
    tubo.incr(llave)
    tubo.expire(llave, VENTANA)
    conteo, _ = tubo.execute()
    return conteo


def sobre() -> tuple[dict, int]:
    """The ping's envelope and status (429 past the limit, never under the bench)."""
    ts = datetime.now(timezone.get_default_timezone()).isoformat(timespec="seconds")
    return {"success": True, "data": {"servicio": "suelo", "ts": ts}, "message": "pong"}, 200


def vista_suelo(request: HttpRequest) -> HttpResponse:
    """Plain Django: count the shared limit, answer the envelope."""
    if contar(request) > LIMITE:
        return JsonResponse({"success": False, "message": "rate limit"}, status=429)
    cuerpo, status = sobre()
    return JsonResponse(cuerpo, status=status)


class SueloDRF(APIView):
    """The same as a DRF APIView: DRF's request wrapping, negotiation and rendering."""

    http_method_names = ["get", "head"]

    def get(self, request: Request) -> Response:
        if contar(request) > LIMITE:
            return Response({"success": False, "message": "rate limit"}, status=429)
        cuerpo, status = sobre()
        return Response(cuerpo, status=status)
