from __future__ import annotations

from django.apps import AppConfig


class HubConfig(AppConfig):
    name = "hub"
    verbose_name = "Hub: ajustes generales"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate
        from django.utils.module_loading import autodiscover_modules

        from hub.administracion.permisos import traducir_permisos
        from hub.cache import almacenes as cache
        from hub.cache import coherencia
        from hub.http import paginas_error
        from hub.operacion import comprobaciones  # noqa: F401  (registers the deploy checks)
        from hub.operacion.conexiones import ajustar_sesion

        connection_created.connect(ajustar_sesion, dispatch_uid="hub.operacion.conexiones")
        # After Django's own create_permissions (auth is earlier in INSTALLED_APPS): Spanish names.
        post_migrate.connect(traducir_permisos, dispatch_uid="hub.administracion.permisos")
        # The cache is never more authoritative than the database (hub.cache.coherencia).
        if coherencia.cache_volvio not in cache.AL_VOLVER:
            cache.AL_VOLVER.append(coherencia.cache_volvio)
        if coherencia.cache_conectada not in cache.AL_CONECTAR:
            cache.AL_CONECTAR.append(coherencia.cache_conectada)
        # With DEBUG (make run) people still get the branded error pages (hub.http.paginas_error);
        # without it Django's own handling already calls them, and nothing is replaced.
        if settings.DEBUG:
            paginas_error.instalar()
        # Each app adds its purges in retencion.py (hub.operacion.retencion), as the admin finds
        # admin.py.
        autodiscover_modules("retencion")
