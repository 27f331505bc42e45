"""/presupuesto/cdp/, /presupuesto/rp/, /presupuesto/paa/: budget lists that find.

The filters are the budget tools' own declarations: the free text of busqueda_global, the area
of estado_presupuesto (id, abbreviation or part of the name), plus state and dates.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import F, Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from rest_framework import serializers

from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.herramientas.estado_presupuesto import filtro_area
from apps.presupuesto.models import Cdp, LineaPaa, Rp
from apps.presupuesto.selectors.filtros import FiltroInvalido
from apps.presupuesto.selectors.listados import areas_visibles, filtrados
from hub.busqueda import listas
from hub.http.serializadores import ConFechas


class FiltrosPresupuesto(ConFechas):
    """Text, area and dates (`desde` never after `hasta`); each list adds its states."""

    texto = serializers.CharField(max_length=120, required=False, allow_blank=True)
    area = filtro_area()  # estado_presupuesto's own declaration
    desde = serializers.DateField(required=False)
    hasta = serializers.DateField(required=False)


class FiltrosCdp(FiltrosPresupuesto):
    estado = serializers.ChoiceField(choices=EstadoCdp.choices, required=False)


class FiltrosRp(FiltrosPresupuesto):
    estado = serializers.ChoiceField(choices=EstadoRp.choices, required=False)


class FiltrosPaa(FiltrosPresupuesto):
    estado = serializers.ChoiceField(choices=EstadoLinea.choices, required=False)


CAMPOS = {
    "texto": listas.PARAM_TEXTO,
    "estado": "estado",
    "area": "area",
    "desde": "desde",
    "hasta": "hasta",
}
POR_NUMERO = (
    listas.Orden("-numero", "Número, de mayor a menor", ("-numero", "-pk")),
    listas.Orden("numero", "Número, de menor a mayor", ("numero", "pk")),
)
POR_EXPEDICION = (
    listas.Orden(
        "recientes",
        "Expedición más reciente primero",
        (F("fecha_expedicion").desc(nulls_last=True), "-pk"),
    ),
    listas.Orden(
        "antiguas",
        "Expedición más antigua primero",
        (F("fecha_expedicion").asc(nulls_last=True), "pk"),
    ),
)


@dataclass(frozen=True)
class Lista:
    """What differs between the three budget lists."""

    clase: str
    modelo: type[Model]
    titulo: str
    plantilla: str
    filtros: type[FiltrosPresupuesto]
    ordenes: tuple[listas.Orden, ...]
    relaciones: tuple[str, ...]
    etiquetas: dict[str, str]

    def cargar(self, ids: list[int]) -> QuerySet:
        """A page's rows with what the template shows of them."""
        return self.modelo.objects.filter(pk__in=ids).select_related(*self.relaciones)


_ETIQUETAS = {"estado": "Estado", "area": "Área"}
CDP = Lista(
    "cdp",
    Cdp,
    "Certificados de disponibilidad (CDP)",
    "presupuesto/lista_cdp.html",
    FiltrosCdp,
    POR_NUMERO + POR_EXPEDICION,
    ("area", "vigencia"),
    {
        **_ETIQUETAS,
        "texto": "Buscar (número, objeto o radicado)",
        "desde": "Expedidos desde",
        "hasta": "Expedidos hasta",
    },
)
RP = Lista(
    "rp",
    Rp,
    "Registros presupuestales (RP)",
    "presupuesto/lista_rp.html",
    FiltrosRp,
    POR_NUMERO + POR_EXPEDICION,
    ("cdp__area", "vigencia"),
    {
        **_ETIQUETAS,
        "texto": "Buscar (número, objeto o beneficiario)",
        "desde": "Expedidos desde",
        "hasta": "Expedidos hasta",
    },
)
PAA = Lista(
    "paa",
    LineaPaa,
    "Líneas del plan anual de adquisiciones (PAA)",
    "presupuesto/lista_paa.html",
    FiltrosPaa,
    (
        listas.Orden("numero", "Vigencia y línea", ("-vigencia__anio", "numero", "pk")),
        listas.Orden("-numero", "Línea, de mayor a menor", ("-vigencia__anio", "-numero", "-pk")),
        listas.Orden("recientes", "Inicio más reciente primero", ("-mes_inicio", "-pk")),
        listas.Orden("antiguas", "Inicio más antiguo primero", ("mes_inicio", "pk")),
    ),
    ("area", "vigencia"),
    {
        **_ETIQUETAS,
        "texto": "Buscar (línea u objeto)",
        "desde": "Inicio desde",
        "hasta": "Inicio hasta",
    },
)


def _lista(request: HttpRequest, lista: Lista) -> HttpResponse:
    usuario = request.user
    lectura = listas.leer(
        request.GET,
        lista.filtros,
        campos=CAMPOS,
        etiquetas=lista.etiquetas,
        ordenes=lista.ordenes,
        opciones={"area": areas_visibles(usuario)},
        vacios={"area": "Todas"},
    )
    pagina = None
    if lectura.valida:
        try:
            qs = filtrados(lista.clase, usuario, lectura.datos)
        except FiltroInvalido as error:
            lectura.marcar_error(error.campo, error.mensaje)
        else:
            pagina = listas.paginar(qs, lectura, lista.cargar)
    return listas.responder(request, lista.plantilla, lectura, pagina, titulo=lista.titulo)


@login_required
@require_safe
def cdps(request: HttpRequest) -> HttpResponse:
    """The CDP of the person's areas, searched, filtered, sorted and paged."""
    return _lista(request, CDP)


@login_required
@require_safe
def rps(request: HttpRequest) -> HttpResponse:
    """The RP of the person's areas, searched, filtered, sorted and paged."""
    return _lista(request, RP)


@login_required
@require_safe
def lineas_paa(request: HttpRequest) -> HttpResponse:
    """The PAA lines of the person's areas, searched, filtered, sorted and paged."""
    return _lista(request, PAA)
