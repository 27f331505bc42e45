from __future__ import annotations

from django.apps import AppConfig


class McpConfig(AppConfig):
    name = "apps.mcp"
    label = "mcp"
    verbose_name = "Asistente (MCP)"
    default_auto_field = "django.db.models.BigAutoField"
