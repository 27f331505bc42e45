"""Liveness of each service: touches neither database nor cache beyond the global limit."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request

from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.openapi import componentes as c
from hub.openapi import documentar as d

SERVICIOS = ("auth", "presupuesto", "solicitudes", "calidad", "archivos", "mcp", "notificaciones")
DESCRIPCION = (
    "Vida del servicio; no toca la base de datos. Los monitores deben mirar solo el estado HTTP "
    "200. Otros métodos: 405 `METODO_NO_PERMITIDO`."
)


class Ping(serializers.Serializer):
    """`data` of a service's ping."""

    servicio = serializers.CharField()
    ts = serializers.DateTimeField(help_text="Hora del servidor, ISO 8601 con desfase.")


class PingPresupuesto(Ping):
    """The budget service's ping adds `ok`."""

    ok = c.Verdadero()


class PingArchivos(serializers.Serializer):
    """The files service's ping: a flat object, without envelope (compatibility)."""

    ok = c.Verdadero()
    servicio = serializers.CharField()
    ts = serializers.DateTimeField()


def ahora() -> str:
    """The server's time (TIME_ZONE), ISO 8601 with offset, to the second."""
    # The project never activates another time zone: TIME_ZONE is the local time (and the
    # default zone, cached by Django, spares timezone.localtime()'s per-thread lookup).
    return datetime.now(timezone.get_default_timezone()).isoformat(timespec="seconds")


class EsquemaPing(AutoSchema):
    """One ping view serves seven services: each route is its own operation in the schema."""

    def get_operation_id(self) -> str:
        return f"ping_{self.view.servicio}"

    def get_summary(self) -> str:
        return f"Ping de {self.view.servicio}"


class PingAPI(VistaPublica):
    """GET {service}/api/v1/ping: the service's name and the time (`servicio` per route)."""

    servicio = ""
    schema = EsquemaPing()

    @d.documentar(
        description=DESCRIPCION,
        tags=["Ping"],
        auth=[],
        respuestas={
            200: OpenApiResponse(
                c.sobre("SobrePing", Ping(), "A ping in the envelope (message 'pong')."),
                description="El servicio vive.",
            )
        },
    )
    def get(self, request: Request) -> HttpResponse:
        return respuestas.ok({"servicio": self.servicio, "ts": ahora()}, "pong")


class PingPresupuestoAPI(PingAPI):
    """The budget service's ping: `data.ok = true` (compatibility)."""

    @d.documentar(
        description=DESCRIPCION + " Compatibilidad: data.ok = true.",
        tags=["Ping"],
        auth=[],
        respuestas={
            200: OpenApiResponse(
                c.sobre(
                    "SobrePingPresupuesto", PingPresupuesto(), "The budget ping in the envelope."
                ),
                description="El servicio vive.",
            )
        },
    )
    def get(self, request: Request) -> HttpResponse:
        return respuestas.ok({"servicio": self.servicio, "ts": ahora(), "ok": True}, "pong")


class PingArchivosAPI(PingAPI):
    """The files service's ping: a flat object without envelope (compatibility)."""

    @d.documentar(
        description=DESCRIPCION + " Compatibilidad: objeto plano sin sobre.",
        tags=["Ping"],
        auth=[],
        respuestas={200: OpenApiResponse(PingArchivos, description="El servicio vive.")},
    )
    def get(self, request: Request) -> HttpResponse:
        return respuestas.RespuestaJSON({"ok": True, "servicio": self.servicio, "ts": ahora()})


def vista_ping(servicio: str):
    """The ping view of one service, with the interface's compatibility exceptions."""
    clase = {"presupuesto": PingPresupuestoAPI, "archivos": PingArchivosAPI}.get(servicio, PingAPI)
    return clase.as_view(servicio=servicio)
