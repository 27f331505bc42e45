from __future__ import annotations

from django.urls import path

from apps.presupuesto.views import documentos, reportes

app_name = "presupuesto"
urlpatterns = [
    path("cdp/<int:pk>", documentos.cdp, name="cdp"),
    path("rp/<int:pk>", documentos.rp, name="rp"),
    path("paa/<int:pk>", documentos.linea_paa, name="linea_paa"),
    path("reportes/constructor", reportes.constructor, name="constructor"),
]
