"""Calls refused before any tool ran, counted per minute: read-only, beside the audit log."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from apps.mcp import rechazos
from apps.mcp.admin.columnas import filtro_codigos, insignia
from apps.mcp.admin.solo_lectura import AdminSoloLectura
from apps.mcp.etiquetas import etiqueta
from apps.mcp.models import RechazoAsistente
from hub.administracion.sitio import fecha_corta


class FiltroFecha(admin.DateFieldListFilter):
    """Django's date filter, titled by what a person looks for ("Por fecha", not "Por minuto")."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.title = "fecha"


@admin.register(RechazoAsistente)
class RechazoAsistenteAdmin(AdminSoloLectura):
    list_display = (
        "minuto_local",
        "usuario_visible",
        "integracion",
        "direccion_visible",
        "estado_visible",
        "codigo_visible",
        "veces",
    )
    columnas_telefono = ("minuto_local", "codigo_visible", "veces")
    list_filter = (filtro_codigos("codigo", "código"), "estado", ("minuto", FiltroFecha))
    search_fields = ("usuario__username", "clave__nombre", "=direccion", "codigo")
    date_hierarchy = "minuto"
    list_select_related = ("usuario", "clave")
    # A row holds nothing more than its columns: its page shows the same, read-only.
    fields = readonly_fields = list_display

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        # The last minutes' counts still live in the cache: written first, shown as they are.
        if self.has_view_permission(request):
            rechazos.volcar()
        return super().changelist_view(request, extra_context)

    @admin.display(description="minuto", ordering="minuto")
    def minuto_local(self, fila: RechazoAsistente) -> str:
        return fecha_corta(fila.minuto)

    @admin.display(description="usuario", ordering="usuario__username")
    def usuario_visible(self, fila: RechazoAsistente) -> str:
        return fila.usuario.username if fila.usuario else "—"

    @admin.display(description="integración", ordering="clave__nombre")
    def integracion(self, fila: RechazoAsistente) -> str:
        return fila.clave.nombre if fila.clave else "—"

    @admin.display(description="dirección", ordering="direccion")
    def direccion_visible(self, fila: RechazoAsistente) -> str:
        return fila.direccion or "—"

    @admin.display(description="estado", ordering="estado")
    def estado_visible(self, fila: RechazoAsistente) -> int:
        return fila.estado

    @admin.display(description="código", ordering="codigo")
    def codigo_visible(self, fila: RechazoAsistente) -> str:
        return insignia("vencido", etiqueta(fila.codigo), titulo=fila.codigo)
