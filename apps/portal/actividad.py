"""The person's "Actividad del asistente" page: their own calls and refusals, filtered, paged
and downloadable as CSV (apps.mcp.actividad reads them). A page, not an endpoint: the audit log
is not readable through the API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from apps.mcp import actividad
from apps.presupuesto.exportar import TIPOS_CONTENIDO, csv_en_trozos
from apps.presupuesto.reportes import Campo

# The existing CSV helper (formulas neutralized, `;` and a BOM for Excel in Spanish): all text.
COLUMNAS_CSV = [(nombre, Campo("", "texto", nombre)) for nombre in actividad.COLUMNAS_CSV]


def _csv(request: HttpRequest, consulta, nombres: dict[str, str]) -> StreamingHttpResponse:
    respuesta = StreamingHttpResponse(
        csv_en_trozos(COLUMNAS_CSV, actividad.filas_csv(consulta, nombres)),
        content_type=TIPOS_CONTENIDO["csv"],
    )
    nombre = f"actividad-asistente-{timezone.localdate():%Y-%m-%d}.csv"
    respuesta["Content-Disposition"] = f'attachment; filename="{nombre}"'
    respuesta["Cache-Control"] = "no-store"
    return respuesta


@never_cache
@login_required
def actividad_asistente(request: HttpRequest) -> HttpResponse:
    usuario = request.user
    nombres = actividad.conexiones_de(usuario)
    filtros = request.GET.copy()
    filtros.pop("pagina", None)
    formato = filtros.pop("formato", [""])[-1]
    formulario = actividad.FiltroActividad(filtros or None, conexiones=nombres)
    valido = not filtros or formulario.is_valid()
    datos = formulario.cleaned_data if filtros and valido else {}
    consulta = actividad.llamadas(usuario, datos) if valido else None
    if formato == "csv" and consulta is not None:
        return _csv(request, consulta, nombres)
    pagina = None
    if consulta is not None:
        pagina = Paginator(consulta, actividad.POR_PAGINA).get_page(request.GET.get("pagina"))
        pagina.filas = actividad.pagina_de_filas(pagina.object_list, nombres)
    muestra_rechazos = valido and not (filtros and formulario.filtra_llamadas)
    contexto = {
        "formulario": formulario,
        "pagina": pagina,
        "consulta": filtros.urlencode(),
        "rechazos": actividad.rechazos(usuario, datos) if muestra_rechazos else None,
        "max_rechazos": actividad.MAX_RECHAZOS,
        "filtrada": bool(filtros),
    }
    return render(request, "cuentas/actividad.html", contexto)
