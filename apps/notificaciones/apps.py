from __future__ import annotations

from django.apps import AppConfig


class NotificacionesConfig(AppConfig):
    name = "apps.notificaciones"
    label = "notificaciones"
    verbose_name = "Notificaciones"
    default_auto_field = "django.db.models.BigAutoField"
