"""The OAuth clients and tokens on the hub's admin site, in Spanish.

The library registers the client model with admin_clientes.AplicacionAdmin (its
APPLICATION_ADMIN_CLASS setting); its own token models are replaced here by Spanish-named
proxies, so the admin's index, titles and permissions read in Spanish (it ships no Spanish).
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from oauth2_provider import admin as admin_oauth
from oauth2_provider.models import AccessToken, Grant, IDToken, RefreshToken

from apps.autorizacion.models import (
    AnfitrionReconocido,
    CodigoAutorizacion,
    TokenAcceso,
    TokenRefresco,
)


class _SinTexto:
    """The library's token admins, with Spanish columns and actions."""

    @admin.display(description="token")
    def masked_token(self, obj) -> str:
        return "(solo se guarda su huella)"


@admin.register(TokenAcceso)
class TokenAccesoAdmin(_SinTexto, admin_oauth.AccessTokenAdmin):
    list_display = ("pk", "user", "application", "scope", "expires")
    actions = ("revocar",)

    @admin.action(description="Revocar los tokens seleccionados (y sus tokens de refresco)")
    def revocar(self, request: HttpRequest, queryset) -> None:
        admin_oauth.AccessTokenAdmin.revoke_tokens(self, request, queryset)


@admin.register(TokenRefresco)
class TokenRefrescoAdmin(_SinTexto, admin_oauth.RefreshTokenAdmin):
    list_display = ("pk", "user", "application", "created", "revoked")
    actions = ("revocar",)

    @admin.action(description="Revocar los tokens seleccionados")
    def revocar(self, request: HttpRequest, queryset) -> None:
        admin_oauth.RefreshTokenAdmin.revoke_tokens(self, request, queryset)


@admin.register(CodigoAutorizacion)
class CodigoAutorizacionAdmin(admin_oauth.GrantAdmin):
    list_display = ("pk", "application", "user", "expires")

    @admin.display(description="código")
    def masked_code(self, obj) -> str:
        return "…"


# The library's own registrations (English names, and OpenID Connect, which the hub does not use).
for _modelo in (AccessToken, RefreshToken, Grant, IDToken):
    if admin.site.is_registered(_modelo):
        admin.site.unregister(_modelo)


@admin.register(AnfitrionReconocido)
class AnfitrionReconocidoAdmin(admin.ModelAdmin):
    """The recognised callback hosts: who the sign-in and consent pages name, and where the
    authorization endpoint's errors may go straight back (apps.autorizacion.reconocidas)."""

    list_display = ("nombre", "anfitrion")
    search_fields = ("nombre", "anfitrion")
    fields = ("anfitrion", "nombre")
