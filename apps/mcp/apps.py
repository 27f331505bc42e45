from __future__ import annotations

from django.apps import AppConfig


class McpConfig(AppConfig):
    name = "apps.mcp"
    label = "mcp"
    verbose_name = "Asistente (MCP)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.utils.module_loading import autodiscover_modules

        from apps.mcp import identidades

        # Each app declares its tools in herramientas.py (as the admin discovers admin.py).
        autodiscover_modules("herramientas")
        identidades.conectar()
