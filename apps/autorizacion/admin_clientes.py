"""The OAuth clients on the hub's admin site (the library registers the model with this class,
its APPLICATION_ADMIN_CLASS setting; a module of its own, imported from the library's admin)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, F, Q
from django.http import HttpRequest

from apps.autorizacion import redirecciones, services
from apps.autorizacion.models import Aplicacion
from apps.mcp.admin.columnas import insignia
from hub.administracion.acciones import accion_masiva
from hub.administracion.sitio import fecha_corta

# Short, for a list column (the filter keeps the full names).
ORIGENES = {"manual": "Administrador", "dcr": "Registro dinámico", "cimd": "CIMD"}


def _ids(queryset) -> list[int]:
    return list(queryset.values_list("pk", flat=True))


def _resumen(hecho: str):
    return lambda cuantas: f"{hecho}: {cuantas}."


class AplicacionAdmin(admin.ModelAdmin):
    """Every client: how it registered, where it sends people back, who connected it."""

    list_display = ("nombre", "anfitriones", "origen", "creada", "usada", "personas", "estado")
    list_filter = ("registration_source", "verificada", "deshabilitada")
    search_fields = ("name", "client_id")
    fields = (
        "name",
        "client_id",
        "redirect_uris",
        "verificada",
        "deshabilitada",
        "registration_source",
        "token_endpoint_auth_method",
        "created",
        "ultimo_uso",
    )
    readonly_fields = (
        "client_id",
        "registration_source",
        "token_endpoint_auth_method",
        "created",
        "ultimo_uso",
    )
    # The clients in use first (a connector's unused second registrations sink to the bottom,
    # where retention removes them after 30 days), then the newest.
    ordering = (F("ultimo_uso").desc(nulls_last=True), "-created")
    actions = ("verificar", "quitar_verificacion", "deshabilitar", "habilitar")

    def get_queryset(self, request: HttpRequest):
        # People connected: those holding a live refresh token (a connection outlives the hour
        # of its access token).
        return (
            super()
            .get_queryset(request)
            .annotate(
                _personas=Count(
                    "refreshtoken__user",
                    filter=Q(refreshtoken__revoked__isnull=True),
                    distinct=True,
                )
            )
        )

    @admin.display(description="nombre", ordering="name")
    def nombre(self, obj: Aplicacion) -> str:
        return obj.nombre_visible

    @admin.display(description="redirige a")
    def anfitriones(self, obj: Aplicacion) -> str:
        hosts = dict.fromkeys(redirecciones.anfitrion(u) for u in obj.redirect_uris.split())
        return ", ".join(h for h in hosts if h) or "—"

    @admin.display(description="cómo se registró", ordering="registration_source")
    def origen(self, obj: Aplicacion) -> str:
        return ORIGENES.get(obj.registration_source, obj.registration_source)

    @admin.display(description="creada", ordering="created")
    def creada(self, obj: Aplicacion) -> str:
        return fecha_corta(obj.created)

    @admin.display(description="último uso", ordering="ultimo_uso")
    def usada(self, obj: Aplicacion) -> str:
        return fecha_corta(obj.ultimo_uso)

    @admin.display(description="estado")
    def estado(self, obj: Aplicacion) -> str:
        if obj.deshabilitada:
            return insignia("no-utilizable", "Deshabilitada")
        if obj.verificada:
            return insignia("activo", "Verificada")
        return insignia("vencido", "No verificada")

    @admin.display(description="personas conectadas", ordering="_personas")
    def personas(self, obj: Aplicacion) -> int:
        return obj._personas

    def save_model(self, request: HttpRequest, obj: Aplicacion, form, change: bool) -> None:
        if not change:
            # An administrator adds a public client (PKCE, no secret), like those that register.
            obj.client_type = Aplicacion.CLIENT_PUBLIC
            obj.authorization_grant_type = Aplicacion.GRANT_AUTHORIZATION_CODE
            obj.registration_source = Aplicacion.Origen.MANUAL
        super().save_model(request, obj, form, change)
        if change and "deshabilitada" in form.changed_data and obj.deshabilitada:
            services.deshabilitar(ids=[obj.pk])  # the coherence bump, as the action does

    verificar = accion_masiva(
        "Marcar como verificadas",
        lambda m, r, qs: services.marcar_verificadas(ids=_ids(qs)),
        _resumen("Aplicaciones marcadas como verificadas"),
    )
    quitar_verificacion = accion_masiva(
        "Quitar la marca de verificadas",
        lambda m, r, qs: services.marcar_verificadas(ids=_ids(qs), verificada=False),
        _resumen("Aplicaciones sin marca de verificadas"),
    )
    deshabilitar = accion_masiva(
        "Deshabilitar (sus tokens dejan de funcionar)",
        lambda m, r, qs: services.deshabilitar(ids=_ids(qs)),
        _resumen("Aplicaciones deshabilitadas"),
    )
    habilitar = accion_masiva(
        "Habilitar de nuevo",
        lambda m, r, qs: services.habilitar(ids=_ids(qs)),
        _resumen("Aplicaciones habilitadas"),
    )
