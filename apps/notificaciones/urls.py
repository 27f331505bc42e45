from __future__ import annotations

from django.urls import path

from apps.notificaciones.api import ContactoAPI

app_name = "notificaciones"
urlpatterns = [
    path("api/public/v1/contacto", ContactoAPI.as_view(), name="contacto"),
]
