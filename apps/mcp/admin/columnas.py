"""List columns and filters of the assistant's admin pages: coloured state badges and a filter
of codes by their Spanish names."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html

from apps.mcp.etiquetas import etiqueta

__all__ = ["filtro_codigos", "insignia"]


def insignia(clase: str, texto: str, titulo: str = "") -> str:
    if titulo:
        return format_html(
            '<span class="estado-credencial {}" title="{}">{}</span>', clase, titulo, texto
        )
    return format_html('<span class="estado-credencial {}">{}</span>', clase, texto)


def filtro_codigos(campo: str, titulo: str) -> type[admin.SimpleListFilter]:
    """A list filter of the codes present in `campo`, by their Spanish names (the address
    keeps the code, as Django's own filter did)."""

    class FiltroCodigos(admin.SimpleListFilter):
        title = titulo
        parameter_name = campo

        def lookups(self, request, model_admin):
            presentes = model_admin.get_queryset(request).order_by().values_list(campo, flat=True)
            return [(c, etiqueta(c)) for c in sorted(set(presentes.distinct()))]

        def queryset(self, request, queryset):
            return queryset.filter(**{campo: self.value()}) if self.value() else queryset

    return FiltroCodigos
