from __future__ import annotations

from django.apps import AppConfig


class HubConfig(AppConfig):
    name = "hub"
    verbose_name = "Hub: ajustes generales"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from hub import comprobaciones  # noqa: F401  (registers the deploy checks)
        from hub.conexiones import ajustar_sesion

        connection_created.connect(ajustar_sesion, dispatch_uid="hub.conexiones")
