"""Admin of vigencias, projects (with assignments and activities) and PAA lines."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import admin, messages
from django.db.models import Q, Sum
from django.forms.models import BaseInlineFormSet

from apps.presupuesto import services
from apps.presupuesto.admin.acciones import FormularioAccionMotivo, accion, motivo
from apps.presupuesto.admin.pesos import columna_pesos, en_pesos
from apps.presupuesto.admin.servicio import AdminServicio, FormularioServicio
from apps.presupuesto.estados import EstadoLinea
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.models import Actividad, Asignacion, LineaPaa, Proyecto, Vigencia
from apps.presupuesto.models.base import CERO
from apps.presupuesto.services.celdas import certificado_celda
from hub.administracion.sitio import columna_corta, columna_de
from hub.busqueda.columnas import filtrar_texto
from hub.busqueda.texto import MESES


class FormularioVigencia(forms.ModelForm):
    class Meta:
        model = Vigencia
        fields = ["anio", "tope"]

    def clean_tope(self):
        tope = self.cleaned_data["tope"]
        if self.instance.pk:
            asignado = (
                Asignacion.objects.filter(proyecto__vigencia=self.instance).aggregate(
                    t=Sum("valor")
                )["t"]
                or CERO
            )
            if tope < asignado:
                raise forms.ValidationError(
                    f"No puede ser menor que lo ya asignado a proyectos ({pesos(asignado)})."
                )
        return tope


@admin.register(Vigencia)
class VigenciaAdmin(admin.ModelAdmin):
    form = FormularioVigencia
    list_display = ["anio", "activa", "tope_pesos", "asignado", "sin_asignar"]
    readonly_fields = ["activa", "consecutivo_cdp", "consecutivo_rp", "consecutivo_linea"]
    actions = ["activar"]

    def get_queryset(self, request):
        return (
            super().get_queryset(request).annotate(_asignado=Sum("proyectos__asignaciones__valor"))
        )

    tope_pesos = columna_pesos("tope", "tope presupuestal")

    @admin.display(description="asignado")
    def asignado(self, obj):
        return en_pesos(obj._asignado or CERO)

    @admin.display(description="sin asignar")
    def sin_asignar(self, obj):
        return en_pesos(obj.tope - (obj._asignado or CERO))

    @admin.action(description="Activar la vigencia seleccionada", permissions=["change"])
    def activar(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Seleccione exactamente una vigencia.", messages.ERROR)
            return
        vigencia = services.activar_vigencia(vigencia=queryset.get())
        self.message_user(request, f"{vigencia} quedó activa.", messages.SUCCESS)


class AsignacionFormSet(BaseInlineFormSet):
    """Assignments of a project: within the vigencia's ceiling, never below what is certified."""

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        proyecto = self.instance
        vigencia = proyecto.vigencia if proyecto.vigencia_id else None
        if vigencia is None:
            return
        propias = CERO
        for form in self.forms:
            if not form.cleaned_data:
                continue
            area = form.cleaned_data.get("area")
            borrar = form.cleaned_data.get("DELETE")
            valor = CERO if borrar else (form.cleaned_data.get("valor") or CERO)
            propias += valor
            if area is not None and proyecto.pk:
                certificado = certificado_celda(proyecto.pk, area.pk)
                if valor < certificado:
                    form.add_error(
                        "valor" if not borrar else None,
                        f"Ya hay {certificado} certificado en CDP para {area.sigla}.",
                    )
        otras = (
            Asignacion.objects.filter(proyecto__vigencia=vigencia)
            .exclude(proyecto=proyecto)
            .aggregate(t=Sum("valor"))["t"]
            or CERO
        )
        if otras + propias > vigencia.tope:
            raise forms.ValidationError(
                f"Las asignaciones superan el tope de la vigencia ({pesos(vigencia.tope)}); "
                f"queda por asignar {pesos(vigencia.tope - otras)}."
            )


class AsignacionInline(admin.TabularInline):
    model = Asignacion
    formset = AsignacionFormSet
    extra = 0
    fields = ["area", "valor", "certificado", "disponible"]
    readonly_fields = ["certificado", "disponible"]

    @admin.display(description="certificado en CDP")
    def certificado(self, obj):
        return en_pesos(self.certificado_valor(obj))

    @admin.display(description="disponible")
    def disponible(self, obj):
        return en_pesos(obj.valor - self.certificado_valor(obj) if obj.pk else CERO)

    def certificado_valor(self, obj):
        if not obj.pk:
            return CERO
        return certificado_celda(obj.proyecto_id, obj.area_id)


class ActividadInline(admin.TabularInline):
    model = Actividad
    extra = 0
    fields = ["codigo", "nombre", "activa"]


@admin.register(Proyecto)
class ProyectoAdmin(admin.ModelAdmin):
    list_display = ["codigo", "nombre", "vigencia", "activo", "asignado"]
    list_filter = ["vigencia", "activo"]
    search_fields = ["codigo", "nombre"]
    # Explicit: the Sum below adds a GROUP BY, which drops Meta.ordering (unordered pagination).
    ordering = ["vigencia", "codigo"]
    inlines = [AsignacionInline, ActividadInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_asignado=Sum("asignaciones__valor"))

    @admin.display(description="asignado", ordering="_asignado")
    def asignado(self, obj):
        return en_pesos(obj._asignado or CERO)

    def get_search_results(self, request, queryset, search_term):
        if not search_term:
            return queryset, False
        return filtrar_texto(queryset, search_term), False


class FiltroMes(admin.SimpleListFilter):
    title = "mes estimado de inicio"
    parameter_name = "mes"

    def lookups(self, request, model_admin):
        vigencia = Vigencia.objects.activa()
        anio = vigencia.anio if vigencia else datetime.date.today().year
        return [(f"{anio}-{m:02d}", f"{MESES[m - 1]} {anio}") for m in range(1, 13)]

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        try:
            anio, mes = (int(x) for x in self.value().split("-"))
            return queryset.filter(mes_inicio=datetime.date(anio, mes, 1))
        except ValueError:
            return queryset.none()


class FormularioLinea(FormularioServicio):
    class Meta:
        model = LineaPaa
        fields = [
            "proyecto",
            "area",
            "actividad",
            "objeto",
            "valor_estimado",
            "mes_inicio",
            "duracion_meses",
            "modalidad",
        ]

    def crear(self) -> LineaPaa:
        datos = self.cleaned_data
        return services.crear_linea_paa(
            proyecto=datos["proyecto"],
            area=datos["area"],
            actividad=datos.get("actividad"),
            objeto=datos["objeto"],
            valor_estimado=datos["valor_estimado"],
            mes_inicio=datos["mes_inicio"],
            duracion_meses=datos["duracion_meses"],
            modalidad=datos["modalidad"],
            usuario=getattr(self, "usuario", None),
        )


@admin.register(LineaPaa)
class LineaPaaAdmin(AdminServicio):
    form = FormularioLinea
    action_form = FormularioAccionMotivo
    # Within 1280 px: which line, what for, whose, how much, when, where it stands.
    list_display = [
        "numero",
        "objeto_corto",
        "area_sigla",
        "valor_estimado_pesos",
        "mes",
        "estado",
    ]
    columnas_telefono = ("numero", "valor_estimado_pesos", "estado")
    list_filter = ["estado", "area", FiltroMes, "vigencia", "modalidad"]
    # The area is the «área» column; the year is in each row's name (the checkbox's label).
    list_select_related = ["vigencia", "area"]
    search_fields = ["objeto"]
    search_help_text = "Busca por número de línea u objeto (sin importar tildes)."
    autocomplete_fields = ["proyecto"]
    actions = ["enviar", "aprobar", "devolver", "anular", "cerrar"]
    # Once created, the line's content changes only while it is a draft or under review.
    CAMPOS_BLOQUEADOS = ["numero", "vigencia", "estado", "motivo_devolucion", "motivo_anulacion"]

    def get_fields(self, request, obj=None):
        campos = self.campos(obj)
        if obj is not None and not self.editable(obj):
            # Read-only: the amount in pesos instead of Django's "10400000,00".
            return ["valor_estimado_pesos" if c == "valor_estimado" else c for c in campos]
        return campos

    def campos(self, obj):
        if obj is None:
            return FormularioLinea.Meta.fields
        return [*self.CAMPOS_BLOQUEADOS, *FormularioLinea.Meta.fields]

    @staticmethod
    def editable(obj) -> bool:
        return obj.estado in (EstadoLinea.BORRADOR, EstadoLinea.EN_REVISION)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        if self.editable(obj):
            return [*self.CAMPOS_BLOQUEADOS, "proyecto", "area", "mes_inicio"]
        return self.get_fields(request, obj)

    valor_estimado_pesos = columna_pesos("valor_estimado", "valor estimado")

    objeto_corto = columna_corta("objeto", "objeto", 70, ordenar=False)

    area_sigla = columna_de("area__sigla", "área")

    @admin.display(description="mes", ordering="mes_inicio")
    def mes(self, obj):
        return f"{MESES[obj.mes_inicio.month - 1]} {obj.mes_inicio.year}"

    enviar = accion(
        "Enviar a revisión",
        lambda modeladmin, request, o: services.enviar_linea(linea=o),
        "Enviadas",
    )
    aprobar = accion(
        "Aprobar", lambda modeladmin, request, o: services.aprobar_linea(linea=o), "Aprobadas"
    )
    devolver = accion(
        "Devolver (escriba el motivo)",
        lambda modeladmin, request, o: services.devolver_linea(linea=o, motivo=motivo(request)),
        "Devueltas",
    )
    anular = accion(
        "Anular (escriba el motivo)",
        lambda modeladmin, request, o: services.anular_linea(linea=o, motivo=motivo(request)),
        "Anuladas",
    )
    cerrar = accion(
        "Cerrar (contratación terminada)",
        lambda modeladmin, request, o: services.cerrar_linea(linea=o),
        "Cerradas",
    )

    def get_search_results(self, request, queryset, search_term):
        if search_term.strip().isdigit() and len(search_term.strip()) <= 9:
            return queryset.filter(
                Q(numero=int(search_term)) | Q(busqueda__contains=search_term.strip())
            ), False
        return super().get_search_results(request, queryset, search_term)
