"""Five routes: a small JsonResponse shaped like the hub's ping (envelope, service, timestamp);
the floor of the assistant's protocol, a JSON-RPC tools/call answered by an echo tool; the
floor of an endpoint with a shared limit, plain and as DRF (bench/limite/suelo.py); and the
floor of a tool call (a limit, a SELECT, an audit INSERT: bench/limite/herramienta.py)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from bench.limite.herramienta import vista_suelo_herramienta
from bench.limite.suelo import SueloDRF, vista_suelo


def vista(request: HttpRequest) -> JsonResponse:
    """The cheapest honest answer Django can give: route, call, serialize a small dict."""
    return JsonResponse(
        {
            "success": True,
            "data": {"servicio": "limite", "ts": timezone.localtime().isoformat()},
            "message": "pong",
        }
    )


@csrf_exempt
def eco(request: HttpRequest) -> HttpResponse:
    """The least any JSON-RPC tool server must do: parse, check the envelope, answer a result."""
    if request.method != "POST":
        return HttpResponse(status=405)
    try:
        mensaje = json.loads(request.body)
    except ValueError:
        return JsonResponse({"jsonrpc": "2.0", "id": None, "error": {"code": -32700}})
    if mensaje.get("jsonrpc") != "2.0" or mensaje.get("method") != "tools/call":
        return JsonResponse({"jsonrpc": "2.0", "id": mensaje.get("id"), "error": {"code": -32600}})
    argumentos = mensaje.get("params", {}).get("arguments", {})
    texto = json.dumps(argumentos, ensure_ascii=False)
    resultado = {
        "content": [{"type": "text", "text": texto}, {"type": "text", "text": texto}],
        "isError": False,
        "structuredContent": argumentos,
    }
    return JsonResponse({"jsonrpc": "2.0", "id": mensaje["id"], "result": resultado})


urlpatterns = [
    path("limite", vista),
    path("eco", eco),
    path("suelo", vista_suelo),
    path("suelo-drf", SueloDRF.as_view()),
    path("suelo-herramienta", vista_suelo_herramienta),
]
