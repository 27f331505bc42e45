"""/solicitudes/: the requests a person can find, with buscar_solicitudes' filters and scopes."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from apps.solicitudes.herramientas.buscar import PERMISO_TODAS, ArgsBuscarSolicitudes
from apps.solicitudes.models import Estado, Solicitud, TipoSolicitud
from apps.solicitudes.models.solicitud import RECIENTES
from apps.solicitudes.selectors import solicitudes_filtradas
from hub.busqueda import listas

# The tool's arguments the page offers, under the page's parameter names.
CAMPOS = {
    "texto": listas.PARAM_TEXTO,
    "estado": "estado",
    "tipo": "tipo",
    "desde": "desde",
    "hasta": "hasta",
    "alcance": "alcance",
}
ETIQUETAS = {
    "texto": "Buscar (número, resumen o tipo)",
    "estado": "Estado",
    "tipo": "Tipo de solicitud",
    "desde": "Radicadas desde",
    "hasta": "Radicadas hasta",
    "alcance": "Mostrar",
}
MIAS = ("mias", "Las radicadas por usted")
TODAS = ("todas", "Todas las que usted puede ver")
# The first is the tools' order (newest filing first, drafts last): page 1 is their answer.
ORDENES = (
    listas.Orden("recientes", "Más recientes primero", (RECIENTES, "-pk")),
    listas.Orden(
        "antiguas", "Más antiguas primero", (F("fecha_radicacion").asc(nulls_last=True), "pk")
    ),
    listas.Orden(
        "numero", "Número, de menor a mayor", (F("numero_radicado").asc(nulls_last=True), "pk")
    ),
    listas.Orden(
        "-numero", "Número, de mayor a menor", (F("numero_radicado").desc(nulls_last=True), "-pk")
    ),
)
SIN_PERMISO_TODAS = (
    "Usted no tiene permiso para ver todas las solicitudes; elija «Las radicadas por usted»."
)


def _cargar(ids: list[int]) -> list[Solicitud]:
    return list(Solicitud.objects.filter(pk__in=ids).para_busqueda())


@login_required
@require_safe
def lista(request: HttpRequest) -> HttpResponse:
    """What the person may see (all of it for ver_todas holders, by default), searched and paged.

    The tool buscar_solicitudes keeps its default `mias`; the page opens on everything the
    person may see when their role sees more than their own filings, so a number from their
    inbox is found without unfolding the filters. Without `alcance` in the query string the
    select shows the first option, so for them "todas" comes first.
    """
    usuario = request.user
    ve_todas = usuario.has_perm(PERMISO_TODAS)
    lectura = listas.leer(
        request.GET,
        ArgsBuscarSolicitudes,
        campos=CAMPOS,
        etiquetas=ETIQUETAS,
        ordenes=ORDENES,
        opciones={
            "estado": Estado.choices,
            "alcance": [TODAS, MIAS] if ve_todas else [MIAS],
            "tipo": list(TipoSolicitud.objects.order_by("nombre").values_list("codigo", "nombre")),
        },
    )
    if lectura.valida and ve_todas and not request.GET.get(CAMPOS["alcance"], "").strip():
        lectura.datos["alcance"] = TODAS[0]
    if lectura.valida and lectura.datos["alcance"] == "todas" and not ve_todas:
        # The tool refuses it too (SIN_PERMISO): the page says so beside the field.
        lectura.marcar_error("alcance", SIN_PERMISO_TODAS)
    pagina = None
    if lectura.valida:
        pagina = listas.paginar(solicitudes_filtradas(usuario, lectura.datos), lectura, _cargar)
    alcance = dict([MIAS, TODAS]).get(lectura.datos["alcance"]) if lectura.valida else None
    return listas.responder(
        request,
        "solicitudes/lista.html",
        lectura,
        pagina,
        titulo="Solicitudes",
        alcance=alcance,
        ve_todas=ve_todas,
    )
