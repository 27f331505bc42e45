from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.http import HttpRequest

from apps.notificaciones import services
from apps.notificaciones.models import MensajeContacto, SitioContacto
from hub.administracion.acciones import AccionDeObjeto, AdminConAcciones, accion_masiva
from hub.administracion.sitio import columna_corta, columna_fecha, con_titulo

ATENDER = AccionDeObjeto(
    nombre="atender",
    boton="Marcar como atendido",
    titulo="¿Marcar este mensaje como atendido?",
    aviso="Queda registrado que usted lo atendió, y cuándo. No se puede deshacer.",
    operacion=lambda request, mensaje, datos: services.marcar_atendidos(
        mensajes=MensajeContacto.objects.filter(pk=mensaje.pk), por=request.user
    ),
    hecho="mensaje atendido.",
    disponible=lambda mensaje: not mensaje.atendido,
    confirmar="Sí, marcar como atendido",
)


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
class MensajeContactoAdmin(AdminConAcciones):
    # What the sender wrote is evidence: shown (always escaped by the admin), never edited.
    # The list answers "what is waiting for me": who wrote, about what, and its state, within
    # 1280 px; the site and the address are filters and the message's page.
    list_display = (
        "referencia",
        "recibido",
        "nombre_corto",
        "asunto_corto",
        "leido",
        "atendido",
        "reenviado",
    )
    list_display_links = ("referencia", "asunto_corto")
    columnas_telefono = ("referencia", "asunto_corto", "atendido")
    list_filter = (
        "sitio",
        "leido",
        "atendido",
        ("recibido_en", con_titulo(admin.DateFieldListFilter, "fecha de recepción")),
    )
    list_select_related = ("sitio", "atendido_por")
    date_hierarchy = "recibido_en"
    search_fields = ("referencia", "nombre", "correo", "asunto", "mensaje")
    actions = ("marcar_leidos", "marcar_atendidos")
    acciones_objeto = (ATENDER,)
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

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # The list's actions and the page's button need "change"; the message itself is
        # evidence, so its page is read-only (no "Guardar").
        return obj is None and super().has_change_permission(request)

    def render_change_form(
        self, request: HttpRequest, context, add=False, change=False, form_url="", obj=None
    ):
        """Opening a message marks it read, when opened by someone who handles messages."""
        # Here, not in change_view: the page's one read of the row is already in `obj`, and its
        # read-only fields are drawn from `obj` later, when the response renders.
        abre = obj is not None and request.method == "GET" and not obj.leido
        if abre and self.has_change_permission(request):
            services.marcar_leidos(mensajes=MensajeContacto.objects.filter(pk=obj.pk))
            obj.leido = True
        return super().render_change_form(request, context, add, change, form_url, obj)

    recibido = columna_fecha("recibido_en", "recibido")

    nombre_corto = columna_corta("nombre", "nombre", 30)
    asunto_corto = columna_corta("asunto", "asunto", 50)

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
