"""Admin of the assistant: settings, credentials (secret shown once), read-only audit log."""

from apps.mcp.admin import ajustes, auditoria, credenciales  # noqa: F401 - registrations
