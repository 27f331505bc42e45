"""Admin of the assistant: settings, API keys (secret shown once), tokens, read-only audit log."""

from __future__ import annotations

import csv
import json

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone

from apps.mcp import services
from apps.mcp.models import AjustesAsistente, ClaveApi, RegistroAuditoria, TokenPersonal


@admin.register(AjustesAsistente)
class AjustesAsistenteAdmin(admin.ModelAdmin):
    list_display = ("__str__", "escrituras_habilitadas", "permitir_token_solo", "token_max_dias")
    fieldsets = (
        (
            "Acceso",
            {
                "fields": (
                    "escrituras_habilitadas",
                    "herramientas_publicas",
                    "permitir_token_solo",
                    "token_max_dias",
                    "confirmacion_segundos",
                    "origenes_permitidos",
                )
            },
        ),
        (
            "Límites",
            {
                "fields": (
                    "integracion_por_minuto",
                    "usuario_por_minuto",
                    "escrituras_por_minuto",
                    "verificaciones_fallidas_por_hora",
                )
            },
        ),
    )

    def has_add_permission(self, request):
        return not AjustesAsistente.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


class ClaveApiForm(forms.ModelForm):
    class Meta:
        model = ClaveApi
        fields = ("nombre", "vence")


@admin.register(ClaveApi)
class ClaveApiAdmin(admin.ModelAdmin):
    form = ClaveApiForm
    list_display = ("nombre", "prefijo", "creado", "vence", "estado", "ultimo_uso")
    list_filter = ("revocado_en",)
    search_fields = ("nombre", "prefijo")
    readonly_fields = ("prefijo", "creado", "creada_por", "revocado_en", "ultimo_uso")
    actions = ("revocar",)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("nombre", "vence")
        return ("nombre", "vence", "prefijo", "creado", "creada_por", "revocado_en", "ultimo_uso")

    def has_delete_permission(self, request, obj=None):
        return False  # keys are revoked, never deleted: the audit log points at them

    @admin.display(description="estado")
    def estado(self, obj: ClaveApi) -> str:
        return obj.estado

    def save_model(self, request, obj: ClaveApi, form, change):
        if not change:
            secreto = services.generar_secreto_clave()
            services.asignar_secreto_clave(obj, secreto)
            obj.creada_por = request.user
            request._clave_mcp_creada = secreto  # shown once by response_add, never stored
        super().save_model(request, obj, form, change)

    def response_add(self, request: HttpRequest, obj: ClaveApi, post_url_continue=None):
        secreto = getattr(request, "_clave_mcp_creada", None)
        if secreto is None:  # pragma: no cover - save_model always sets it
            return super().response_add(request, obj, post_url_continue)
        contexto = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "clave": obj,
            "secreto": secreto,
            "title": "Clave de API creada",
            "subtitle": None,  # every variable the admin base uses is set: none is logged
        }
        response = TemplateResponse(request, "mcp/admin/clave_creada.html", contexto)
        response["Cache-Control"] = "no-store"
        return response

    @admin.action(description="Revocar las claves seleccionadas")
    def revocar(self, request, queryset):
        n = services.revocar_claves(ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{n} clave(s) revocada(s).", messages.SUCCESS)


@admin.register(TokenPersonal)
class TokenPersonalAdmin(admin.ModelAdmin):
    list_display = ("usuario", "nombre", "prefijo", "creado", "vence", "estado", "ultimo_uso")
    list_filter = ("revocado_en", "vence")
    search_fields = ("usuario__username", "nombre", "prefijo")
    fields = (
        "usuario",
        "nombre",
        "prefijo",
        "creado",
        "vence",
        "revocado_en",
        "ultimo_uso",
        "ultima_ip",
    )
    readonly_fields = fields
    actions = ("revocar",)

    def has_add_permission(self, request):
        return False  # each person creates their own on the profile page

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="estado")
    def estado(self, obj: TokenPersonal) -> str:
        return obj.estado

    @admin.action(description="Revocar los tokens seleccionados")
    def revocar(self, request, queryset):
        n = services.revocar_tokens(ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{n} token(s) revocado(s).", messages.SUCCESS)


@admin.register(RegistroAuditoria)
class RegistroAuditoriaAdmin(admin.ModelAdmin):
    list_display = (
        "creado",
        "usuario",
        "clave",
        "credencial",
        "ip",
        "herramienta",
        "resultado",
        "duracion_ms",
    )
    list_filter = (
        "creado",
        "herramienta",
        "resultado",
        "credencial",
        ("usuario", admin.RelatedOnlyFieldListFilter),
        ("clave", admin.RelatedOnlyFieldListFilter),
    )
    # "=request_id": paste the id of a log line to find its row (exact match); a proxy's id too.
    search_fields = (
        "herramienta",
        "resultado",
        "usuario__username",
        "=request_id",
        "=request_id_recibido",
    )
    date_hierarchy = "creado"
    list_select_related = ("usuario", "clave")
    actions = ("exportar_csv",)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Exportar a CSV", permissions=["view"])
    def exportar_csv(self, request, queryset):
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        nombre = f"auditoria-asistente-{timezone.localdate():%Y%m%d}.csv"
        response["Content-Disposition"] = f'attachment; filename="{nombre}"'
        escritor = csv.writer(response)
        escritor.writerow(
            [
                "fecha",
                "usuario",
                "integracion",
                "credencial",
                "ip",
                "herramienta",
                "argumentos",
                "resultado",
                "duracion_ms",
                "request_id",
                "request_id_recibido",
            ]
        )
        for fila in queryset.select_related("usuario", "clave").iterator(chunk_size=2000):
            escritor.writerow(
                [
                    timezone.localtime(fila.creado).strftime("%Y-%m-%d %H:%M:%S"),
                    _celda(fila.usuario.username if fila.usuario else ""),
                    _celda(fila.clave.nombre if fila.clave else ""),
                    fila.credencial,
                    fila.ip or "",
                    _celda(fila.herramienta),
                    _celda(_json(fila.argumentos)),
                    fila.resultado,
                    fila.duracion_ms,
                    fila.request_id,
                    fila.request_id_recibido,
                ]
            )
        return response


def _json(valor) -> str:
    return json.dumps(valor, ensure_ascii=False, sort_keys=True)


def _celda(texto: str) -> str:
    """Neutralize spreadsheet formulas in text people or clients wrote (CSV injection)."""
    if texto and texto[0] in "=+-@\t\r":
        return "'" + texto
    return texto
