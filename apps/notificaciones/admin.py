from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from apps.notificaciones import services
from apps.notificaciones.models import MensajeContacto, SitioContacto
from hub.admin_acciones import accion_masiva


@admin.register(SitioContacto)
class SitioContactoAdmin(admin.ModelAdmin):
    list_display = ("codigo", "nombre", "activo", "correo_destino", "total_mensajes")
    list_filter = ("activo",)
    search_fields = ("codigo", "nombre", "correo_destino")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_total=Count("mensajes"))

    @admin.display(description="mensajes", ordering="_total")
    def total_mensajes(self, obj: SitioContacto) -> int:
        return obj._total


@admin.register(MensajeContacto)
class MensajeContactoAdmin(admin.ModelAdmin):
    # What the sender wrote is evidence: shown (always escaped by the admin), never edited.
    list_display = (
        "referencia",
        "recibido_en",
        "sitio",
        "nombre",
        "correo",
        "asunto",
        "leido",
        "atendido",
        "reenviado",
    )
    list_display_links = ("referencia", "asunto")
    list_filter = ("sitio", "leido", "atendido", "recibido_en")
    list_select_related = ("sitio", "atendido_por")
    date_hierarchy = "recibido_en"
    search_fields = ("referencia", "nombre", "correo", "asunto", "mensaje")
    actions = ("marcar_leidos", "marcar_atendidos")
    fieldsets = (
        (None, {"fields": ("referencia", "sitio", "recibido_en")}),
        ("Remitente", {"fields": ("nombre", "correo", "ip", "user_agent")}),
        ("Mensaje", {"fields": ("asunto", "mensaje")}),
        ("Estado", {"fields": ("leido", "atendido", "atendido_en", "atendido_por")}),
        ("Reenvío", {"fields": ("correo_enviado_en",)}),
    )
    readonly_fields = (
        "referencia",
        "sitio",
        "recibido_en",
        "nombre",
        "correo",
        "ip",
        "user_agent",
        "asunto",
        "mensaje",
        "leido",
        "atendido",
        "atendido_en",
        "atendido_por",
        "correo_enviado_en",
    )

    def has_add_permission(self, request):
        return False  # messages only arrive through the public endpoint

    @admin.display(description="reenviado", boolean=True)
    def reenviado(self, obj: MensajeContacto) -> bool:
        return obj.correo_enviado_en is not None

    marcar_leidos = accion_masiva(
        "Marcar como leído",
        lambda modeladmin, request, mensajes: services.marcar_leidos(mensajes=mensajes),
        lambda n: f"{n} mensaje(s) marcado(s) como leído(s).",
        permisos=["change"],
    )
    marcar_atendidos = accion_masiva(
        "Marcar como atendido",
        lambda modeladmin, request, mensajes: services.marcar_atendidos(
            mensajes=mensajes, por=request.user
        ),
        lambda n: f"{n} mensaje(s) marcado(s) como atendido(s).",
        permisos=["change"],
    )
