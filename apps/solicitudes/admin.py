"""Admin screens: request types with their workflow, requests with their inbox, chat and history.

The workflow fields of a request (state, stage, number, dates) are read-only here: they only
change through the services, which keep tasks and history consistent.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Count
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from apps.solicitudes import selectors, services
from apps.solicitudes.models import (
    HORAS_POR_VENCER,
    CampoFormulario,
    Comentario,
    Consecutivo,
    Etapa,
    Evento,
    Solicitud,
    Tarea,
    TipoSolicitud,
)
from hub.administracion.sitio import columna_de, columna_fecha, con_titulo

MASCARA = "•••••• (dato sensible)"


class EtapaInline(admin.TabularInline):
    model = Etapa
    extra = 0
    fields = ("orden", "nombre", "rol", "plazo_horas", "requiere_firma")
    ordering = ("orden",)


@admin.register(TipoSolicitud)
class TipoSolicitudAdmin(admin.ModelAdmin):
    list_display = ("nombre", "codigo", "area", "prefijo", "es_mesa_ayuda", "activo", "n_etapas")
    list_filter = (
        "activo",
        ("es_mesa_ayuda", con_titulo(admin.BooleanFieldListFilter, "mesa de ayuda")),
        "area",
    )
    search_fields = ("nombre", "codigo")
    prepopulated_fields = {"codigo": ("nombre",)}
    inlines = [EtapaInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("area").annotate(_n=Count("etapas"))

    @admin.display(description="etapas", ordering="_n")
    def n_etapas(self, obj: TipoSolicitud) -> int:
        return obj._n

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "nombre" in form.changed_data:
            # The type's name is part of each request's search text.
            services.reindexar_busqueda(tipo=obj)


class _SoloLectura:
    """Inline rows are evidence of what happened: viewed here, written by the services."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class CampoFormularioInline(_SoloLectura, admin.TabularInline):
    model = CampoFormulario
    fields = ("etiqueta", "nombre", "valor_visible", "sensible")
    readonly_fields = fields

    @admin.display(description="valor")
    def valor_visible(self, obj: CampoFormulario) -> str:
        return MASCARA if obj.sensible else obj.valor


class TareaInline(_SoloLectura, admin.TabularInline):
    model = Tarea
    fields = (
        "etapa",
        "rol",
        "asignada_a",
        "es_correccion",
        "requiere_firma",
        "recibida_en",
        "vence_en",
        "completada_en",
        "completada_por",
    )
    readonly_fields = fields
    ordering = ("recibida_en", "pk")

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("etapa", "rol", "asignada_a", "completada_por")
        )


class ComentarioInline(_SoloLectura, admin.TabularInline):
    model = Comentario
    fields = ("creado_en", "autor", "texto")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("autor")


class EventoInline(_SoloLectura, admin.TabularInline):
    model = Evento
    fields = ("creado_en", "accion", "actor", "etapa_origen", "etapa_destino", "descripcion")
    readonly_fields = fields

    def get_queryset(self, request):
        return (
            super().get_queryset(request).select_related("actor", "etapa_origen", "etapa_destino")
        )


class SolicitudAdminForm(forms.ModelForm):
    """The change form carries the request's version it was drawn for, as the request page's
    forms do: saved over a newer one (a transition, another administrator) it acts on nothing."""

    version_formulario = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version_formulario"].initial = self.instance.version

    def clean(self):
        datos = super().clean()
        # The admin's change view runs in a transaction: the row stays locked until saved.
        actual = (
            Solicitud.objects.select_for_update()
            .filter(pk=self.instance.pk)
            .values_list("version", flat=True)
            .first()
        )
        if datos.get("version_formulario") != actual:
            raise forms.ValidationError(
                services.CAMBIO.format(que="nada se guardó."), code="solicitud_cambio"
            )
        return datos


@admin.register(Solicitud)
class SolicitudAdmin(admin.ModelAdmin):
    form = SolicitudAdminForm
    # Within 1280 px: which request, of what type, where it stands, whose; the requester and
    # the other dates are on its page.
    list_display = (
        "numero_visible",
        "tipo",
        "estado",
        "etapa_actual",
        "area_sigla",
        "radicada",
    )
    columnas_telefono = ("numero_visible", "tipo", "estado")
    radicada = columna_fecha("fecha_radicacion", "radicada", solo_dia=True)
    area_sigla = columna_de("area__sigla", "área")
    list_filter = ("estado", "tipo", "area", "fecha_radicacion")
    list_select_related = ("tipo", "etapa_actual", "area")
    search_fields = ("numero_radicado", "resumen")
    search_help_text = "Número de radicado o palabras del resumen (sin importar tildes)."
    date_hierarchy = "fecha_radicacion"
    # A million rows: no exact count of the unfiltered list on every page.
    show_full_result_count = False
    list_per_page = 50
    raw_id_fields = ("solicitante", "padre")
    inlines = [CampoFormularioInline, TareaInline, ComentarioInline, EventoInline]
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "numero_radicado",
                    "enlace",
                    "tipo",
                    "area",
                    "resumen",
                    "padre",
                    "version_formulario",
                )
            },
        ),
        (
            "Trámite",
            {"fields": ("estado", "etapa_actual", "rol_responsable", "hijos_visibles")},
        ),
        (
            "Solicitante",
            {"fields": ("solicitante", "nombre_solicitante", "correo_solicitante")},
        ),
        (
            "Fechas",
            {
                "fields": (
                    "creada_en",
                    "fecha_radicacion",
                    "fecha_actualizacion",
                    "fecha_cierre",
                )
            },
        ),
        ("Participantes", {"fields": ("participantes",)}),
    )
    readonly_fields = (
        "numero_radicado",
        "enlace",
        "estado",
        "etapa_actual",
        "rol_responsable",
        "hijos_visibles",
        "creada_en",
        "fecha_radicacion",
        "fecha_actualizacion",
        "fecha_cierre",
        "participantes",
    )

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.readonly_fields
        # Who filed it and of which type is part of the record once it exists.
        return (
            *self.readonly_fields,
            "tipo",
            "area",
            "solicitante",
            "nombre_solicitante",
            "correo_solicitante",
        )

    def has_add_permission(self, request):
        return False  # requests are filed through the services (number, tasks, history)

    def save_model(self, request, obj, form, change):
        # A change here makes every form drawn before it stale, as a transition does.
        obj.version += 1
        super().save_model(request, obj, form, change)

    def has_delete_permission(self, request, obj=None):
        return False  # the record of a filing is kept; annul it instead

    def get_search_results(self, request, queryset, search_term):
        """Exact number, else every word in the normalized (trigram-indexed) search column."""
        termino = search_term.strip()
        if not termino:
            return queryset, False
        por_numero = queryset.por_numero(termino)
        if por_numero.exists():
            return por_numero, False
        return queryset.buscar(termino), False

    @admin.display(description="número", ordering="numero_radicado")
    def numero_visible(self, obj: Solicitud) -> str:
        return format_html('<span class="nowrap">{}</span>', obj.numero_visible)

    @admin.display(description="enlace")
    def enlace(self, obj: Solicitud) -> str:
        return obj.enlace if obj.pk else "—"

    @admin.display(description="solicitudes hijas")
    def hijos_visibles(self, obj: Solicitud) -> str:
        return ", ".join(obj.radicados_hijos) or "—"

    @admin.display(description="participantes")
    def participantes(self, obj: Solicitud) -> str:
        if not obj.pk:
            return "—"
        personas = selectors.participantes(obj)
        return format_html_join(", ", "{}", ((p.nombre_visible,) for p in personas)) or "—"


class VencimientoFilter(admin.SimpleListFilter):
    title = "vencimiento"
    parameter_name = "vencimiento"

    def lookups(self, request, model_admin):
        return [
            ("vencida", "Vencidas"),
            ("por_vencer", f"Vencen en {HORAS_POR_VENCER} h"),
            ("al_dia", "Pendientes al día"),
            ("completada", "Completadas"),
        ]

    def queryset(self, request, queryset):
        ahora = timezone.now()
        if self.value() == "vencida":
            return queryset.vencidas(ahora)
        if self.value() == "por_vencer":
            return queryset.por_vencer(ahora)
        if self.value() == "al_dia":
            return queryset.pendientes().filter(vence_en__gte=ahora)
        if self.value() == "completada":
            return queryset.completadas()
        return queryset


@admin.register(Tarea)
class TareaAdmin(admin.ModelAdmin):
    # Within 1280 px: whose task, on which request and stage, when it is due and whether done.
    list_display = ("solicitud", "etapa", "responsable", "vence", "vencida", "completada")
    vence = columna_fecha("vence_en", "vence")
    completada = columna_fecha("completada_en", "completada")
    list_filter = (
        VencimientoFilter,
        "rol",
        ("requiere_firma", con_titulo(admin.BooleanFieldListFilter, "firma requerida")),
        ("es_correccion", con_titulo(admin.BooleanFieldListFilter, "corrección")),
    )
    list_select_related = ("solicitud", "etapa", "rol", "asignada_a")
    search_fields = ("solicitud__numero_radicado",)
    show_full_result_count = False
    raw_id_fields = ("solicitud", "asignada_a", "completada_por")
    readonly_fields = (
        "solicitud",
        "etapa",
        "rol",
        "asignada_a",
        "requiere_firma",
        "es_correccion",
        "instrucciones",
        "recibida_en",
        "vence_en",
        "completada_en",
        "completada_por",
    )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="responsable")
    def responsable(self, obj: Tarea) -> str:
        """The person who holds it, else the role whose members may take it."""
        return str(obj.asignada_a or obj.rol or "solicitante")

    @admin.display(description="vencida", boolean=True)
    def vencida(self, obj: Tarea) -> bool:
        return obj.vencida_en()


@admin.register(Consecutivo)
class ConsecutivoAdmin(admin.ModelAdmin):
    list_display = ("prefijo", "anio", "ultimo")
    readonly_fields = ("prefijo", "anio", "ultimo")

    def has_add_permission(self, request):
        return False  # rows appear with the first filing of each prefix and year

    def has_delete_permission(self, request, obj=None):
        return False
