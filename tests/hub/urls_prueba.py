"""URLs used only by the envelope tests: views that fail in each way the envelope must cover."""

from __future__ import annotations

from decimal import Decimal

from django.http import Http404
from django.urls import include, path
from rest_framework import serializers
from rest_framework.views import APIView

from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.http.serializadores import Estricto


def falla(request):
    raise RuntimeError("secreto-interno-que-no-debe-salir")


def no_existe(request):
    raise Http404("nada")


class Montos(VistaPublica):
    def get(self, request):
        return respuestas.ok({"valor": Decimal("12345678901234567.89"), "saldo": Decimal("0.10")})


class Entrada(Estricto):
    nombre = serializers.CharField(max_length=5)
    edad = serializers.IntegerField(min_value=0)


class Eco(APIView):
    def post(self, request):
        datos = Entrada(data=request.data)
        datos.is_valid(raise_exception=True)
        return respuestas.ok(datos.validated_data, status=201)


urlpatterns = [
    path("prueba/api/v1/falla", falla),
    path("prueba/api/v1/no-existe", no_existe),
    path("prueba/api/v1/montos", Montos.as_view()),
    path("prueba/api/v1/eco", Eco.as_view()),
    path("", include("hub.urls")),
]
