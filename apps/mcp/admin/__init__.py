"""Admin of the assistant: settings, credentials (secret shown once), read-only audit log and
refusal counts."""

from apps.mcp.admin import ajustes, auditoria, credenciales, rechazos  # noqa: F401 - registrations
