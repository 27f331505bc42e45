from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.calidad import services
from apps.calidad.models import Documento, Proceso
from hub.administracion.acciones import AccionesDeServicio
from hub.administracion.sitio import columna_fecha

# A document the service refuses is a warning (the others still go through), in id order.
ACCIONES = AccionesDeServicio(
    rechazos=ValueError,
    nivel_rechazo=messages.WARNING,
    resumen=lambda hecho, cuantos: f"{cuantos} documento(s) {hecho}.",
    orden=["id"],
)


@admin.register(Proceso)
class ProcesoAdmin(admin.ModelAdmin):
    list_display = ("sigla", "nombre", "categoria")
    list_filter = ("categoria",)
    search_fields = ("sigla", "nombre")


class DocumentoForm(forms.ModelForm):
    class Meta:
        model = Documento
        fields = ("codigo_publicado", "titulo", "version", "tipo", "proceso", "temas")

    def clean(self):
        datos = super().clean()
        version = datos.get("version")
        # `uid` is read-only in the form, so Django would not check (uid, version) itself.
        if self.instance.pk and version:
            repetida = Documento.objects.filter(uid=self.instance.uid, version=version)
            if repetida.exclude(pk=self.instance.pk).exists():
                self.add_error("version", "Esa versión ya existe para este documento.")
        return datos


@admin.register(Documento)
class DocumentoAdmin(admin.ModelAdmin):
    form = DocumentoForm
    # Within 1280 px; the process is a filter and the document's page.
    list_display = (
        "codigo_publicado",
        "titulo_corto",
        "version",
        "tipo",
        "estado",
        "publicado",
    )
    columnas_telefono = ("codigo_publicado", "titulo_corto", "estado")
    publicado = columna_fecha("fecha_publicacion", "publicación")
    list_filter = ("estado", "tipo", "proceso")
    list_select_related = ("proceso",)
    search_fields = ("codigo_publicado", "titulo", "temas", "uid")
    date_hierarchy = "fecha_publicacion"
    # State and dates move only through the actions, which keep one current version per document.
    readonly_fields = (
        "uid",
        "estado",
        "fecha_publicacion",
        "anteriores",
        "creado_en",
        "actualizado_en",
    )
    fields = (
        "uid",
        "codigo_publicado",
        "titulo",
        "version",
        "tipo",
        "proceso",
        "temas",
        "estado",
        "fecha_publicacion",
        "anteriores",
        "creado_en",
        "actualizado_en",
    )
    actions = ("publicar", "nueva_version", "marcar_obsoleto")

    @admin.display(description="título", ordering="titulo")
    def titulo_corto(self, documento: Documento) -> str:
        titulo = documento.titulo
        return titulo if len(titulo) <= 70 else titulo[:69] + "…"

    @admin.display(description="códigos anteriores")
    def anteriores(self, documento: Documento) -> str:
        """The old codes as text ("SC-P-01, SC-P-01A"), not the JSON list they are stored as."""
        return ", ".join(str(c) for c in documento.codigos_anteriores or []) or "—"

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        """Also accent-insensitive over the search column (old codes and process included)."""
        resultado, duplicados = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            resultado = resultado | queryset.buscar(search_term)
        return resultado, duplicados

    publicar = ACCIONES.accion(
        "Publicar la versión (la vigente queda obsoleta)",
        lambda modeladmin, request, d: services.publicar_version(borrador=d),
        "publicados",
    )
    nueva_version = ACCIONES.accion(
        "Crear borrador de una nueva versión",
        lambda modeladmin, request, d: services.crear_borrador(documento=d),
        "con nuevo borrador",
    )
    marcar_obsoleto = ACCIONES.accion(
        "Retirar (marcar como obsoleto)",
        lambda modeladmin, request, d: services.retirar(documento=d),
        "retirados",
    )
