"""Credentials for the assistant tests (secrets made through the real services)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from apps.mcp import secretos, services
from apps.mcp.models import ClaveApi, TokenPersonal


def nueva_clave(nombre: str = "Integración de prueba", **kwargs) -> tuple[ClaveApi, str]:
    """An API key and its secret."""
    return services.crear_clave_api(nombre=nombre, **kwargs)


def nuevo_token(
    usuario, *, dias: int = 30, revocado: bool = False, nombre: str = "Portátil"
) -> tuple[TokenPersonal, str]:
    """A personal token and its secret, whatever the user's permissions (negative days: expired)."""
    secreto = secretos.generar(secretos.PREFIJO_TOKEN)
    ahora = timezone.now()
    token = services.guardar_token(
        usuario=usuario,
        nombre=nombre,
        secreto=secreto,
        vence=ahora + timedelta(days=dias),
        revocado_en=ahora if revocado else None,
    )
    return token, secreto
