from __future__ import annotations

from django.apps import AppConfig


class SolicitudesConfig(AppConfig):
    name = "apps.solicitudes"
    label = "solicitudes"
    verbose_name = "Solicitudes"
    default_auto_field = "django.db.models.BigAutoField"
