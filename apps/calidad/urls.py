from __future__ import annotations

from django.urls import path, re_path

from apps.calidad import listado, views

app_name = "calidad"
urlpatterns = [
    path("documentos/", listado.lista, name="lista"),
    re_path(r"^documentos/(?P<uid>[0-9A-Za-z]{1,40})$", views.documento, name="documento"),
    # A published code ("ASC-PR-001"): a redirect to the page above.
    re_path(
        r"^documentos/(?P<codigo>[0-9A-Za-z][0-9A-Za-z._-]{0,39})$",
        views.por_codigo,
        name="por_codigo",
    ),
]
