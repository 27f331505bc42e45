from __future__ import annotations

from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured


class McpConfig(AppConfig):
    name = "apps.mcp"
    label = "mcp"
    verbose_name = "Asistente (MCP)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.utils.module_loading import autodiscover_modules

        from apps.mcp import identidades
        from apps.mcp.areas import AREAS
        from hub.herramientas.registro import registro

        # Each app declares its tools in herramientas.py (as the admin discovers admin.py).
        autodiscover_modules("herramientas")
        # The registry sits below the assistant and does not know its areas: checked here.
        for herramienta in registro:
            if herramienta.area is not None and herramienta.area not in AREAS:
                raise ImproperlyConfigured(
                    f"{herramienta.nombre}: área desconocida {herramienta.area!r}"
                )
        identidades.conectar()
