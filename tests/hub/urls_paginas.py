"""URLs of the error-page tests: pages that fail in each way a person may meet."""

from __future__ import annotations

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404
from django.urls import include, path

from hub.http import respuestas
from hub.urls import handler400, handler403, handler404, handler500  # noqa: F401


def prohibida(request):
    raise PermissionDenied


def rota(request):
    raise RuntimeError("detalle-interno-que-no-debe-salir")


def mala(request):
    raise BadRequest("detalle-interno-de-la-peticion")


def ausente(request):
    raise Http404("detalle-interno-del-404")


def limitada(request):
    raise respuestas.ErrorAPI(429, headers={"Retry-After": "17"})


urlpatterns = [
    path("prueba/prohibida", prohibida),
    path("prueba/rota", rota),
    path("prueba/limitada", limitada),
    path("prueba/mala", mala),
    path("prueba/ausente", ausente),
    path("prueba/api/v1/prohibida", prohibida),
    path("prueba/api/v1/rota", rota),
    path("", include("hub.urls")),
]
