from __future__ import annotations

from django.apps import AppConfig


class AutorizacionConfig(AppConfig):
    name = "apps.autorizacion"
    label = "autorizacion"
    verbose_name = "Conexiones OAuth del asistente"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.autorizacion import accesos

        accesos.conectar()
