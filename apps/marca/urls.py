"""The identity service ({auth_url} = /auth): brand and brand images."""

from __future__ import annotations

from django.urls import path

from apps.marca import api

app_name = "marca"
urlpatterns = [
    path("api/v1/auth/marca", api.MarcaAPI.as_view(), name="marca"),
    path("api/v1/auth/marca/archivo/<str:slot>", api.ArchivoMarcaAPI.as_view(), name="archivo"),
]
