from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from oauth2_provider.apps import DOTConfig

from apps.autorizacion.permisos import VERBOS

# The library's own tables, named in Spanish where Django names their permissions ("Can add
# access token"): the admin shows the Spanish proxies (apps.autorizacion.models), but these
# permissions still appear where groups and people get theirs.
NOMBRES_BIBLIOTECA = {
    "accesstoken": "los tokens de acceso",
    "refreshtoken": "los tokens de refresco",
    "grant": "los códigos de autorización",
    "idtoken": "los tokens de identidad",
    "devicegrant": "las autorizaciones de dispositivo",
}


def permisos_en_espanol(sender, using: str = "default", **kwargs) -> None:
    """post_migrate: the library's permissions named in Spanish (after Django created them)."""
    from django.contrib.auth.models import Permission

    for permiso in Permission.objects.using(using).filter(
        content_type__app_label="oauth2_provider"
    ):
        accion, _, modelo = permiso.codename.partition("_")
        if accion in VERBOS and modelo in NOMBRES_BIBLIOTECA:
            nombre = f"Puede {VERBOS[accion]} {NOMBRES_BIBLIOTECA[modelo]} (OAuth)"
            if permiso.name != nombre:
                permiso.name = nombre
                permiso.save(update_fields=["name"])


class OAuthBibliotecaConfig(DOTConfig):
    """django-oauth-toolkit under a Spanish name (INSTALLED_APPS names this config)."""

    verbose_name = "OAuth (tablas de la biblioteca)"


class AutorizacionConfig(AppConfig):
    default = True  # this module holds two configs: "apps.autorizacion" means this one
    name = "apps.autorizacion"
    label = "autorizacion"
    verbose_name = "Conexiones OAuth del asistente"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from oauth2_provider.signals import app_authorized

        from apps.autorizacion import accesos, credencial, reconocidas, retiros, services
        from apps.mcp import credenciales

        # The assistant's credential table gets its OAuth kind from here: mcp imports no OAuth.
        credenciales.registrar(credencial.OAUTH)
        accesos.conectar()
        reconocidas.conectar()
        retiros.conectar()  # a person who loses the assistant loses refreshing
        # A token issued is a use of its client (the MCP endpoint notes the others).
        app_authorized.connect(
            lambda sender, request, token, **kw: services.anotar_uso(token.application),
            dispatch_uid="oauth-uso",
            weak=False,
        )
        post_migrate.connect(permisos_en_espanol, dispatch_uid="oauth-permisos-es")
