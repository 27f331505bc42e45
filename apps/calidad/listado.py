"""/calidad/documentos/: the public list of current quality documents (what buscar_documento
shows anyone), with type, process and publication-date filters."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from rest_framework import serializers

from apps.calidad.models import Documento
from apps.calidad.selectors import POR_CODIGO, documentos_vigentes, procesos
from hub.busqueda import listas
from hub.http.serializadores import ConFechas


class FiltrosDocumentos(ConFechas):
    """buscar_documento's text (optional here: an empty search lists every current document),
    type, process and publication dates (`desde` never after `hasta`)."""

    # buscar_documento's limits on its text.
    texto = serializers.CharField(min_length=2, max_length=120, required=False, allow_blank=True)
    tipo = serializers.ChoiceField(choices=Documento.Tipo.choices, required=False)
    proceso = serializers.CharField(max_length=10, required=False)
    desde = serializers.DateField(required=False)
    hasta = serializers.DateField(required=False)


CAMPOS = {
    "texto": listas.PARAM_TEXTO,
    "tipo": "tipo",
    "proceso": "proceso",
    "desde": "desde",
    "hasta": "hasta",
}
ETIQUETAS = {
    "texto": "Buscar (título, código o tema)",
    "tipo": "Tipo de documento",
    "proceso": "Proceso",
    "desde": "Publicados desde",
    "hasta": "Publicados hasta",
}
# The first is buscar_documento's order: page 1 is its answer.
ORDENES = (
    listas.Orden("codigo", "Código, de la A a la Z", POR_CODIGO),
    listas.Orden("-codigo", "Código, de la Z a la A", ("-codigo_publicado", "-id")),
    listas.Orden("recientes", "Publicación más reciente primero", ("-fecha_publicacion", "-id")),
    listas.Orden("antiguas", "Publicación más antigua primero", ("fecha_publicacion", "id")),
)


def _cargar(ids: list[int]):
    return Documento.objects.filter(pk__in=ids).select_related("proceso")


@require_safe
def lista(request: HttpRequest) -> HttpResponse:
    """Public, like buscar_documento: published versions only, never drafts nor content."""
    lectura = listas.leer(
        request.GET,
        FiltrosDocumentos,
        campos=CAMPOS,
        etiquetas=ETIQUETAS,
        ordenes=ORDENES,
        opciones={"proceso": procesos()},
    )
    pagina = None
    if lectura.valida:
        pagina = listas.paginar(documentos_vigentes(**lectura.datos), lectura, _cargar)
    return listas.responder(
        request, "calidad/lista.html", lectura, pagina, titulo="Documentos del sistema de calidad"
    )
