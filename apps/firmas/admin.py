from __future__ import annotations

import re
import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst

from apps.firmas import qr, services
from apps.firmas.models import Firma
from hub.administracion.acciones import AccionDeObjeto, AdminConAcciones
from hub.administracion.sitio import columna_corta, columna_fecha, con_titulo

_PREFIJO_TOKEN = re.compile(r"^[0-9a-fA-F-]{4,36}$")


class TipoDocumentoFilter(admin.SimpleListFilter):
    """Only the document types that have signatures, not every model of the project."""

    title = "tipo de documento"
    parameter_name = "tipo"

    def lookups(self, request, model_admin):
        tipos = ContentType.objects.filter(pk__in=Firma.objects.values("content_type").distinct())
        return [(str(t.pk), capfirst(t.name)) for t in tipos.order_by("model")]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.filter(content_type_id=int(self.value()))
        return queryset


class EstadoFilter(admin.SimpleListFilter):
    """Vigente / Anulada in words, at the address Django's yes/no filter had."""

    title = "estado"
    parameter_name = "anulada__exact"

    def lookups(self, request, model_admin):
        return [("0", "Vigente"), ("1", "Anulada")]

    def queryset(self, request, queryset):
        if self.value() in ("0", "1"):
            return queryset.filter(anulada=self.value() == "1")
        return queryset


class AnularForm(forms.Form):
    motivo = forms.CharField(
        label="Motivo de la anulación",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Queda registrado con la firma.",
    )
    publicar = forms.BooleanField(
        label="Mostrar el motivo en la verificación pública",
        required=False,
        help_text="Solo si no contiene datos personales (nombres, documentos, correos o "
        "teléfonos). Sin marcar, la verificación dice cuándo se anuló, no por qué.",
    )


ANULAR = AccionDeObjeto(
    nombre="anular",
    boton="Anular la firma",
    titulo="¿Anular esta firma?",
    aviso=(
        "La anulación no la borra: queda registrada como anulada, con la fecha y el motivo, y "
        "la verificación pública responderá «La firma fue anulada.». No se puede deshacer."
    ),
    operacion=lambda request, firma, datos: services.anular(
        firma=firma, motivo=datos["motivo"], motivo_publico=datos["publicar"]
    ),
    hecho="firma anulada.",
    disponible=lambda firma: not firma.anulada,
    formulario=AnularForm,
    rechazos=(services.FirmaInvalida,),
    confirmar="Sí, anular la firma",
)


@admin.register(Firma)
class FirmaAdmin(AdminConAcciones):
    # Within 1280 px: which signature, who signed, which document (its number, linked to its
    # page on the site), when, and whether it still holds; the role and reason are on its page.
    list_display = (
        "token_corto",
        "firmante_corto",
        "tipo_documento",
        "documento_visible",
        "firmado",
        "estado",
        "enlaces_qr",
    )
    columnas_telefono = ("token_corto", "documento_visible", "estado")
    list_filter = (
        EstadoFilter,
        TipoDocumentoFilter,
        ("firmado_en", con_titulo(admin.DateFieldListFilter, "fecha de firma")),
    )
    list_select_related = ("content_type",)
    search_fields = ("firmante", "rol")
    search_help_text = "Nombre, rol o código de verificación (completo o sus primeros caracteres)."
    date_hierarchy = "firmado_en"
    actions = ("anular",)
    acciones_objeto = (ANULAR,)
    fields = (
        "token",
        "firmante",
        "rol",
        "usuario",
        "tipo_documento",
        "documento_visible",
        "firmado_en",
        "estado",
        "anulada_en",
        "motivo_anulacion",
        "motivo_publico",
        "codigo_qr",
    )
    readonly_fields = fields

    # Signatures are made by the services and annulled with a reason, never edited or deleted.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        resultado, duplicados = super().get_search_results(request, queryset, search_term)
        termino = search_term.strip().lower()
        try:
            resultado = resultado | queryset.filter(token=uuid.UUID(termino))
        except ValueError:
            if _PREFIJO_TOKEN.match(termino):
                # As printed: hyphens included (SQLite's Django drops them on both sides).
                resultado = resultado | queryset.filter(token__startswith=termino)
        return resultado, duplicados

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Each row names its document: fetched per type in one query each, not one per row.
        return super().get_queryset(request).prefetch_related("documento")

    @admin.display(description="código", ordering="token")
    def token_corto(self, firma: Firma) -> str:
        return str(firma.token)[:8]

    firmante_corto = columna_corta("firmante", "firmante", 40)

    @admin.display(description="documento")
    def documento_visible(self, firma: Firma) -> str:
        """The signed document's number ("CDP-2026-00001"), linked to its page on the site."""
        documento = firma.documento
        if documento is None:
            return format_html("<em>{}</em>", "documento eliminado")
        enlace = getattr(documento, "enlace", None)
        if enlace:
            return format_html('<a href="{}" class="nowrap">{}</a>', enlace, documento)
        return str(documento)

    firmado = columna_fecha("firmado_en", "firmada")

    @admin.display(description="estado", ordering="anulada")
    def estado(self, firma: Firma) -> str:
        """ "Vigente" or "Anulada" in words (a green tick read as "anulada: yes")."""
        if firma.anulada:
            return format_html('<span class="estado-credencial revocado">{}</span>', "Anulada")
        return format_html('<span class="estado-credencial activo">{}</span>', "Vigente")

    @admin.display(description="tipo de documento", ordering="content_type__model")
    def tipo_documento(self, firma: Firma) -> str:
        # capfirst, not capitalize: "CDP", "Movimiento de RP", "Línea del PAA" keep their acronyms.
        return capfirst(firma.content_type.name)

    @admin.display(description="QR")
    def enlaces_qr(self, firma: Firma) -> str:
        return format_html(
            '<a href="{}">SVG</a> · <a href="{}">PNG</a>',
            reverse("admin:firmas_firma_qr_svg", args=[firma.pk]),
            reverse("admin:firmas_firma_qr_png", args=[firma.pk]),
        )

    @admin.display(description="código QR")
    def codigo_qr(self, firma: Firma) -> str:
        svg = reverse("admin:firmas_firma_qr_svg", args=[firma.pk])
        return format_html(
            '<img src="{}" width="180" height="180" alt="Código QR de la firma"><br>'
            '<a href="{}">Descargar SVG</a> · <a href="{}">Descargar PNG</a><br>'
            '<a href="{}" rel="noopener" target="_blank">{}</a>',
            svg,
            svg,
            reverse("admin:firmas_firma_qr_png", args=[firma.pk]),
            firma.ruta_verificacion(),
            firma.url_verificacion(),
        )

    def get_urls(self):
        propias = [
            path(
                "<int:pk>/qr.svg",
                self.admin_site.admin_view(self.descargar_svg),
                name="firmas_firma_qr_svg",
            ),
            path(
                "<int:pk>/qr.png",
                self.admin_site.admin_view(self.descargar_png),
                name="firmas_firma_qr_png",
            ),
        ]
        return propias + super().get_urls()

    def _firma_visible(self, request: HttpRequest, pk: int) -> Firma:
        firma = Firma.objects.filter(pk=pk).first()
        if firma is None:
            raise Http404("No existe esa firma.")
        if not self.has_view_permission(request, firma):
            raise PermissionDenied
        return firma

    def _descarga(self, contenido: bytes, tipo: str, nombre: str) -> HttpResponse:
        respuesta = HttpResponse(contenido, content_type=tipo)
        respuesta["Content-Disposition"] = f'inline; filename="{nombre}"'
        respuesta["Cache-Control"] = "private, no-store"
        return respuesta

    def descargar_svg(self, request: HttpRequest, pk: int) -> HttpResponse:
        firma = self._firma_visible(request, pk)
        return self._descarga(qr.qr_svg(firma), "image/svg+xml", f"firma-{firma.token}.svg")

    def descargar_png(self, request: HttpRequest, pk: int) -> HttpResponse:
        firma = self._firma_visible(request, pk)
        return self._descarga(qr.qr_png(firma), "image/png", f"firma-{firma.token}.png")

    @admin.action(description="Anular las firmas seleccionadas", permissions=["change"])
    def anular(self, request: HttpRequest, queryset: QuerySet):
        """Asks for the reason on an intermediate page, then annuls each signature."""
        form = AnularForm(request.POST if "confirmar" in request.POST else None)
        if form.is_bound and form.is_valid():
            hechas = 0
            try:
                for firma in queryset.filter(anulada=False):
                    services.anular(
                        firma=firma,
                        motivo=form.cleaned_data["motivo"],
                        motivo_publico=form.cleaned_data["publicar"],
                    )
                    hechas += 1
            except services.FirmaInvalida as exc:
                form.add_error("motivo", str(exc))
            else:
                self.message_user(request, f"{hechas} firma(s) anulada(s).", messages.SUCCESS)
                return None
        contexto = {
            **self.admin_site.each_context(request),
            "title": "Anular firmas",
            "opts": self.model._meta,
            "firmas": queryset,
            "form": form,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "firmas/admin/anular.html", contexto)
