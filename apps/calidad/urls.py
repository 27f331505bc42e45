from __future__ import annotations

from django.urls import re_path

from apps.calidad import views

app_name = "calidad"
urlpatterns = [
    re_path(r"^documentos/(?P<uid>[0-9A-Za-z]{1,40})$", views.documento, name="documento"),
]
