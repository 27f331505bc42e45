from __future__ import annotations

from django.apps import AppConfig


class AutorizacionConfig(AppConfig):
    name = "apps.autorizacion"
    label = "autorizacion"
    verbose_name = "Conexiones OAuth del asistente"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from oauth2_provider.signals import app_authorized

        from apps.autorizacion import accesos, services

        accesos.conectar()
        # A token issued is a use of its client (the MCP endpoint notes the others).
        app_authorized.connect(
            lambda sender, request, token, **kw: services.anotar_uso(token.application),
            dispatch_uid="oauth-uso",
            weak=False,
        )
