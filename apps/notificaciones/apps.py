from __future__ import annotations

from django.apps import AppConfig


class NotificacionesConfig(AppConfig):
    name = "apps.notificaciones"
    label = "notificaciones"
    verbose_name = "Notificaciones"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from corsheaders.signals import check_request_enabled

        from apps.notificaciones.cors import permitir_origen_de_sitio

        check_request_enabled.connect(permitir_origen_de_sitio, dispatch_uid="notificaciones-cors")
