"""OAuth clients and tokens for tests (tokens made the way the library stores them)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from oauth2_provider.models import AccessToken, RefreshToken, set_token_value

from apps.autorizacion import tokens
from apps.autorizacion.models import Aplicacion
from apps.mcp import recurso

REDIRECCION = "http://127.0.0.1:33418/callback"


def nueva_aplicacion(nombre: str = "Asistente de prueba", **campos) -> Aplicacion:
    """A public client (PKCE, no secret) registered as an assistant registers itself."""
    datos = {
        "name": nombre,
        "redirect_uris": REDIRECCION,
        "client_type": Aplicacion.CLIENT_PUBLIC,
        "authorization_grant_type": Aplicacion.GRANT_AUTHORIZATION_CODE,
        "registration_source": Aplicacion.Origen.DCR,
        **campos,
    }
    return Aplicacion.objects.create(**datos)


def emitir_token(
    usuario,
    aplicacion: Aplicacion,
    *,
    alcances: str = "asistente:leer asistente:escribir",
    recursos: list[str] | None = None,
    segundos: int = 3600,
) -> tuple[AccessToken, str, str]:
    """(access token row, access secret, refresh secret), as the token endpoint issues them."""
    secreto = tokens.generar_acceso()
    refresco = tokens.generar_refresco()
    acceso = AccessToken(
        user=usuario,
        application=aplicacion,
        scope=alcances,
        expires=timezone.now() + timedelta(seconds=segundos),
        resource=[recurso.url_recurso()] if recursos is None else recursos,
    )
    set_token_value(acceso, secreto)
    acceso.save()
    fila = RefreshToken(user=usuario, application=aplicacion, access_token=acceso)
    set_token_value(fila, refresco)
    fila.save()
    return acceso, secreto, refresco
