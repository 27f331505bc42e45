from __future__ import annotations

from django.apps import AppConfig


class FirmasConfig(AppConfig):
    name = "apps.firmas"
    label = "firmas"
    verbose_name = "Firmas electrónicas"
    default_auto_field = "django.db.models.BigAutoField"
