from __future__ import annotations

from django.apps import AppConfig


class CalidadConfig(AppConfig):
    name = "apps.calidad"
    label = "calidad"
    verbose_name = "Calidad"
    default_auto_field = "django.db.models.BigAutoField"
