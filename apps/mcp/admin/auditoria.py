"""The audit log: read-only, every key column within a 1280 px screen, local times with seconds,
filters by tool, result, person, OAuth client and date, and CSV export of exactly what the list
shows."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.http import HttpRequest, HttpResponseRedirect, StreamingHttpResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from apps.mcp.admin.columnas import filtro_codigos, insignia
from apps.mcp.admin.solo_lectura import AdminSoloLectura
from apps.mcp.etiquetas import etiqueta
from apps.mcp.models import RegistroAuditoria
from hub.administracion.sitio import fecha_corta

FORMATO = "%Y-%m-%d %H:%M:%S"  # the CSV's, sortable
FORMATO_ADMIN = "%d/%m/%Y %H:%M:%S"  # the admin's one style, with seconds
COLUMNAS_CSV = [
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
    "cliente_oauth_id",
    "cliente_oauth",
]


def _json(valor) -> str:
    return json.dumps(valor, ensure_ascii=False, sort_keys=True)


def _celda(texto: str) -> str:
    """Neutralize spreadsheet formulas in text people or clients wrote (CSV injection)."""
    if texto and texto[0] in "=+-@\t\r":
        return "'" + texto
    return texto


class _Linea:
    """A file-like object whose write() returns the line: csv.writer feeding a stream."""

    def write(self, valor: str) -> str:
        return valor


def filas_csv(filas: Iterable[RegistroAuditoria]) -> Iterator[str]:
    """The CSV lines (header first) of audit rows, times in local time with seconds."""
    escritor = csv.writer(_Linea())
    yield escritor.writerow(COLUMNAS_CSV)
    for fila in filas:
        yield escritor.writerow(
            [
                timezone.localtime(fila.creado).strftime(FORMATO),
                _celda(fila.usuario.username if fila.usuario else ""),
                _celda(fila.clave.nombre if fila.clave else ""),
                fila.credencial,
                fila.ip or "",
                _celda(fila.herramienta),
                _celda(_json(fila.argumentos)),
                fila.resultado,
                fila.duracion_ms,
                fila.request_id,
                _celda(fila.request_id_recibido),
                fila.cliente_id if fila.cliente_id is not None else "",
                _celda(fila.cliente_nombre),
            ]
        )


def respuesta_csv(queryset) -> StreamingHttpResponse:
    """A streamed CSV download (the log may hold millions of rows)."""
    filas = queryset.select_related("usuario", "clave").iterator(chunk_size=2000)
    response = StreamingHttpResponse(filas_csv(filas), content_type="text/csv; charset=utf-8")
    nombre = f"auditoria-asistente-{timezone.localdate():%Y%m%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{nombre}"'
    response["Cache-Control"] = "no-store"
    return response


class FiltroCliente(admin.SimpleListFilter):
    """The OAuth clients that appear in the log, each by its id (names are not unique)."""

    title = "cliente OAuth"
    parameter_name = "cliente"

    def lookups(self, request, model_admin):
        nombres: dict[int, str] = {}
        # One group per (client, name): a client that renamed itself is listed by its latest.
        grupos = (
            RegistroAuditoria.objects.filter(cliente_id__isnull=False)
            .values_list("cliente_id", "cliente_nombre")
            .annotate(ultima=Max("creado"))
            .order_by("ultima")
        )
        for id_, nombre, _ultima in grupos:
            nombres[id_] = nombre
        return [(str(id_), f"{nombre} (#{id_})") for id_, nombre in sorted(nombres.items())]

    def queryset(self, request, queryset):
        valor = self.value()
        if valor is None:
            return queryset
        if not valor.isdigit():
            return queryset.none()
        return queryset.filter(cliente_id=int(valor))


@admin.register(RegistroAuditoria)
class RegistroAuditoriaAdmin(AdminSoloLectura):
    change_list_template = "admin/mcp/registroauditoria/change_list.html"
    list_display = (
        "fecha",
        "usuario",
        "integracion",
        "herramienta",
        "resultado_visible",
        "duracion",
    )  # the IP (up to 39 characters in IPv6) is in each row's page, the CSV and the search
    columnas_telefono = ("fecha", "herramienta", "resultado_visible")
    list_filter = (
        "creado",
        "herramienta",
        filtro_codigos("resultado", "resultado"),
        ("usuario", admin.RelatedOnlyFieldListFilter),
        "credencial",
        ("clave", admin.RelatedOnlyFieldListFilter),
        FiltroCliente,
    )
    # "=request_id": paste the id of a log line to find its row (exact match); a proxy's id too.
    search_fields = (
        "herramienta",
        "resultado",
        "usuario__username",
        "=request_id",
        "=request_id_recibido",
        "=ip",
    )
    date_hierarchy = "creado"
    list_select_related = ("usuario", "clave")
    actions = ("exportar_csv",)
    fields = (
        "fecha",
        "usuario",
        "clave",
        "token_prefijo",
        "cliente_id",
        "cliente_nombre",
        "credencial",
        "ip",
        "herramienta",
        "argumentos_legibles",
        "resultado_visible",
        "duracion",
        "request_id",
        "request_id_recibido",
    )
    readonly_fields = fields

    @admin.display(description="fecha", ordering="creado")
    def fecha(self, fila: RegistroAuditoria) -> str:
        return fecha_corta(fila.creado, FORMATO_ADMIN)

    @admin.display(description="integración", ordering="clave__nombre")
    def integracion(self, fila: RegistroAuditoria) -> str:
        if fila.clave:
            return fila.clave.nombre
        return f"{fila.cliente_nombre} (OAuth)" if fila.cliente_id is not None else "—"

    @admin.display(description="resultado", ordering="resultado")
    def resultado_visible(self, fila: RegistroAuditoria) -> str:
        clase = "activo" if fila.resultado == "ok" else "vencido"
        return insignia(clase, etiqueta(fila.resultado), titulo=fila.resultado)

    @admin.display(description="duración", ordering="duracion_ms")
    def duracion(self, fila: RegistroAuditoria) -> str:
        return format_html('<span class="nowrap">{} ms</span>', fila.duracion_ms)

    @admin.display(description="argumentos")
    def argumentos_legibles(self, fila: RegistroAuditoria) -> str:
        if not fila.argumentos:
            return "—"
        texto = json.dumps(fila.argumentos, ensure_ascii=False, sort_keys=True, indent=2)
        return format_html('<pre class="argumentos">{}</pre>', texto)

    def get_urls(self):
        propias = [
            path(
                "exportar/",
                self.admin_site.admin_view(self.exportar_view),
                name="mcp_registroauditoria_exportar",
            )
        ]
        return propias + super().get_urls()

    def exportar_view(self, request: HttpRequest):
        """The list as filtered and searched (same query string), every page, as CSV."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            lista = self.get_changelist_instance(request)
        except IncorrectLookupParameters:
            return HttpResponseRedirect(reverse("admin:mcp_registroauditoria_changelist"))
        return respuesta_csv(lista.queryset)

    @admin.action(description="Exportar las filas seleccionadas a CSV", permissions=["view"])
    def exportar_csv(self, request, queryset):
        return respuesta_csv(queryset)
