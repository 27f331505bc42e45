from __future__ import annotations

from django.apps import AppConfig


class MarcaConfig(AppConfig):
    name = "apps.marca"
    label = "marca"
    verbose_name = "Marca"
    default_auto_field = "django.db.models.BigAutoField"
