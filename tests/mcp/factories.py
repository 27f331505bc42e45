"""Credentials for the assistant tests (secrets made through the real services), and a refusal
whose minute's count still lives in the cache."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

from apps.mcp import rechazos, services
from apps.mcp.models import ClaveApi, RechazoAsistente, TokenPersonal
from apps.mcp.secretos import PREFIJO_TOKEN
from hub import secretos


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
    secreto = secretos.generar(PREFIJO_TOKEN)
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


def nueva_aplicacion(nombre: str = "Claude", **campos):
    """An OAuth client (public, authorization code), as an assistant registers itself."""
    from oauth2_provider.models import get_application_model

    Aplicacion = get_application_model()
    return Aplicacion.objects.create(
        name=nombre,
        client_type=Aplicacion.CLIENT_PUBLIC,
        authorization_grant_type=Aplicacion.GRANT_AUTHORIZATION_CODE,
        redirect_uris="https://asistente.example/callback",
        **campos,
    )


def nuevo_token_oauth(
    usuario,
    *,
    aplicacion=None,
    alcances: str = "asistente:leer asistente:escribir",
    recursos: list[str] | None = None,
    segundos: int = 3600,
):
    """An OAuth access token and its secret, as the hub's authorization server issues them
    (digest only at rest; bound to the MCP resource unless `recursos` says otherwise)."""
    from oauth2_provider.models import get_access_token_model, set_token_value

    from apps.autorizacion import tokens
    from apps.mcp import recurso

    secreto = tokens.generar_acceso()
    token = get_access_token_model()(
        user=usuario,
        application=aplicacion or nueva_aplicacion(),
        scope=alcances,
        expires=timezone.now() + timedelta(seconds=segundos),
        resource=recursos if recursos is not None else [recurso.url_recurso()],
    )
    set_token_value(token, secreto)
    token.save()
    return token, secreto
