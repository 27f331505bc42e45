"""Liveness of each service: touches neither database nor cache beyond the global limit."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from hub import respuestas

SERVICIOS = ("auth", "presupuesto", "solicitudes", "calidad", "archivos", "mcp", "notificaciones")


def _ts() -> str:
    return timezone.localtime().isoformat(timespec="seconds")


def vista_ping(servicio: str):
    """The ping view of one service, with the interface's compatibility exceptions."""

    @respuestas.metodos("GET")
    def ping(request: HttpRequest) -> HttpResponse:
        if servicio == "archivos":
            # Compatibility: the files service answers a flat object, without envelope.
            return JsonResponse({"ok": True, "servicio": servicio, "ts": _ts()})
        data: dict[str, object] = {"servicio": servicio, "ts": _ts()}
        if servicio == "presupuesto":
            data["ok"] = True
        return respuestas.ok(data, "pong")

    ping.__name__ = f"ping_{servicio}"
    return ping
