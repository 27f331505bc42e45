"""Credentials for the assistant tests (secrets made through the real services), and a refusal
whose minute's count still lives in the cache."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

from apps.mcp import rechazos, secretos, services
from apps.mcp.models import ClaveApi, RechazoAsistente, TokenPersonal


def nueva_clave(
    nombre: str = "Integración de prueba", *, vence=None, **kwargs
) -> tuple[ClaveApi, str]:
    """An API key and its secret; a past `vence` makes an expired key (the service refuses to
    create one, so it expires after creation)."""
    if vence is not None and vence <= timezone.now():
        clave, secreto = services.crear_clave_api(nombre=nombre, **kwargs)
        ClaveApi.objects.filter(pk=clave.pk).update(vence=vence)
        clave.refresh_from_db()
        return clave, secreto
    return services.crear_clave_api(nombre=nombre, vence=vence, **kwargs)


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


def rechazo_contado_en_cache(veces: int) -> RechazoAsistente:
    """An address's 401 of this minute, pending: its row says 1, the cache's counter `veces`
    (what a flush would write). Pin `rechazos.minuto_actual` first, so the minute stays put."""
    fila = RechazoAsistente.objects.create(
        minuto=rechazos.minuto_actual(),
        quien="ip 203.0.113.66",
        direccion="203.0.113.66",
        estado=401,
        codigo="NO_AUTENTICADO",
        veces=1,
    )
    cache.set(rechazos.llave_cache(fila), veces, 600)
    return fila
