from __future__ import annotations

from django.urls import path

from apps.presupuesto.views import documentos, listas, reportes

app_name = "presupuesto"
urlpatterns = [
    path("cdp/", listas.cdps, name="lista_cdp"),
    path("rp/", listas.rps, name="lista_rp"),
    path("paa/", listas.lineas_paa, name="lista_paa"),
    path("cdp/<int:pk>", documentos.cdp, name="cdp"),
    path("rp/<int:pk>", documentos.rp, name="rp"),
    path("paa/<int:pk>", documentos.linea_paa, name="linea_paa"),
    path("reportes/constructor", reportes.constructor, name="constructor"),
]
