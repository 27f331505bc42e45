"""The budget dashboard, an area's summary and the PAA lines of a month, for what the user sees.

Every function takes the user and returns only what the user's areas allow.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, QuerySet, Sum

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.models import Actividad, Cdp, LineaPaa, Proyecto, Rp, Vigencia
from apps.presupuesto.models.base import CERO, ve_todas_las_areas
from apps.presupuesto.selectors.cifras import (
    UMBRAL_AMARILLO,
    UMBRAL_VERDE,
    cifras_de,
    lineas_por_estado,
    suma,
    total_lineas,
)
from apps.presupuesto.selectors.filtros import (
    MAX_COINCIDENCIAS,
    FiltroInvalido,
    resolver_areas,
    resolver_proyectos,
)
from hub.busqueda.texto import limpiar

MAX_MAYORES = 5


def vigencia_activa() -> Vigencia | None:
    return Vigencia.objects.activa()


def tablero(
    user,
    *,
    proyecto: str | Proyecto | None = None,
    area: str | Area | None = None,
    detalle: bool = False,
    vigencia: Vigencia | None = None,
) -> dict | None:
    """The managerial dashboard of the active vigencia for what the user may see.

    None when there is no active vigencia; FiltroInvalido when a filter matches nothing.
    `detalle` with exactly one matching project adds its activities.
    """
    vigencia = vigencia or vigencia_activa()
    if vigencia is None:
        return None
    areas = resolver_areas(area, user)
    resueltos = resolver_proyectos(proyecto, user, vigencia)
    proyectos, muestra = resueltos if resueltos else (None, None)
    datos = cifras_de(user, vigencia, proyectos, areas)
    total = datos.total()
    todas = ve_todas_las_areas(user)
    global_ = todas and areas is None and proyectos is None
    # The ceiling of a partial view is what was assigned to it; only the whole shows the
    # vigencia's ceiling and what is still unassigned.
    tope = vigencia.tope if global_ else total.asignado
    resultado = {
        "vigencia": vigencia.anio,
        "todas_las_areas": todas,
        "filtros": {
            "proyectos": muestra[:MAX_COINCIDENCIAS] if muestra is not None else None,
            "areas": [_area(a) for a in areas] if areas is not None else None,
        },
        "tope": tope,
        "sin_asignar": tope - total.asignado if global_ else None,
        **total.como_dict(),
        "lineas_paa": lineas_por_estado(datos.lineas),
        "lineas_paa_total": total_lineas(datos.lineas),
        "por_proyecto": datos.agrupado(0, datos.proyectos, "codigo"),
        "por_area": datos.agrupado(1, datos.areas, "sigla"),
        "umbrales_semaforo": {"verde": UMBRAL_VERDE, "amarillo": UMBRAL_AMARILLO},
    }
    if detalle and muestra is not None and len(muestra) == 1:
        resultado["detalle"] = _detalle_proyecto(user, muestra[0], areas)
    return resultado


def _area(area: Area) -> dict:
    return {"id": area.pk, "sigla": area.sigla, "nombre": area.nombre}


def _detalle_proyecto(user, proyecto: dict, areas: list[Area] | None) -> dict:
    """Activities of one project with what is programmed and certified on each (3 queries)."""
    lin = LineaPaa.objects.visibles_para(user).filter(proyecto_id=proyecto["id"])
    cdp = Cdp.objects.visibles_para(user).certificados().filter(proyecto_id=proyecto["id"])
    if areas is not None:
        lin = lin.filter(area__in=[a.pk for a in areas])
        cdp = cdp.filter(area__in=[a.pk for a in areas])
    programado = {
        f["actividad_id"]: f
        for f in lin.filter(estado__in=estados.LINEAS_PROGRAMADAS)
        .values("actividad_id")
        .order_by()
        .annotate(lineas=Count("id"), total=Sum("valor_estimado"))
    }
    certificado = {
        f["linea_paa__actividad_id"]: suma(f["total"])
        for f in cdp.values("linea_paa__actividad_id")
        .order_by()
        .annotate(total=Sum("valor_actual"))
    }
    actividades = [
        {"id": a.pk, "codigo": a.codigo, "nombre": a.nombre, "activa": a.activa}
        for a in Actividad.objects.filter(proyecto_id=proyecto["id"]).order_by("codigo")
    ]
    actividades.append({"id": None, "codigo": None, "nombre": "Sin actividad", "activa": True})
    filas = []
    for actividad in actividades:
        prog = programado.get(actividad["id"], {})
        cert = certificado.get(actividad["id"]) or CERO
        if actividad["id"] is None and not prog and not cert:
            continue
        filas.append(
            {
                **actividad,
                "lineas_paa": prog.get("lineas", 0),
                "programado": suma(prog.get("total")),
                "certificado": cert,
            }
        )
    return {"proyecto": proyecto, "actividades": filas}


def resumen_area(user, area: str | Area) -> dict | None:
    """Budget situation of one area: figures, PAA lines by status, projects, CDP/RP by status.

    None without an active vigencia; FiltroInvalido when the area is not visible or the text
    matches several areas.
    """
    vigencia = vigencia_activa()
    if vigencia is None:
        return None
    encontradas = resolver_areas(area, user)
    if len(encontradas) > 1:
        raise FiltroInvalido(
            "area",
            str(area),
            f"Varias áreas coinciden con «{area}»; indique la sigla.",
            [a.sigla for a in encontradas],
        )
    elegida = encontradas[0]
    datos = cifras_de(user, vigencia, None, [elegida])
    cdp_todos = Cdp.objects.visibles_para(user).de_vigencia(vigencia).filter(area=elegida)
    rp_todos = Rp.objects.visibles_para(user).de_vigencia(vigencia).filter(cdp__area=elegida)
    return {
        "vigencia": vigencia.anio,
        "area": _area(elegida),
        **datos.total().como_dict(),
        "lineas_paa": lineas_por_estado(datos.lineas),
        "lineas_paa_total": total_lineas(datos.lineas),
        "por_proyecto": datos.agrupado(0, datos.proyectos, "codigo"),
        "cdp_por_estado": _por_estado(cdp_todos, EstadoCdp),
        "rp_por_estado": _por_estado(rp_todos, EstadoRp),
        "umbrales_semaforo": {"verde": UMBRAL_VERDE, "amarillo": UMBRAL_AMARILLO},
    }


def _por_estado(qs: QuerySet, choices) -> list[dict]:
    filas = {
        f["estado"]: f
        for f in qs.values("estado")
        .order_by()
        .annotate(cantidad=Count("id"), total=Sum("valor_actual"))
    }
    return [
        {
            "estado": e.value,
            "estado_visible": e.label,
            "cantidad": filas.get(e.value, {}).get("cantidad", 0),
            "valor_actual": suma(filas.get(e.value, {}).get("total")),
        }
        for e in choices
    ]


def paa_mes(user, mes: datetime.date, area: str | Area | None = None) -> dict:
    """PAA lines with estimated start in the month of `mes`: totals, by status and area, top.

    Totals and the per-area figures leave annulled lines out (they appear only by status).
    """
    areas = resolver_areas(area, user)
    lin = LineaPaa.objects.visibles_para(user).del_mes(mes)
    if areas is not None:
        lin = lin.filter(area__in=[a.pk for a in areas])
    por_estado = {
        f["estado"]: (f["cantidad"], suma(f["total"]))
        for f in lin.values("estado")
        .order_by()
        .annotate(cantidad=Count("id"), total=Sum("valor_estimado"))
    }
    vivas = lin.exclude(estado=EstadoLinea.ANULADA)
    por_area = [
        {
            "id": f["area_id"],
            "sigla": f["area__sigla"],
            "nombre": f["area__nombre"],
            "cantidad": f["cantidad"],
            "valor": suma(f["total"]),
        }
        for f in vivas.values("area_id", "area__sigla", "area__nombre")
        .order_by("area__sigla")
        .annotate(cantidad=Count("id"), total=Sum("valor_estimado"))
    ]
    mayores = [
        _linea(linea)
        for linea in vivas.select_related("area", "proyecto").order_by("-valor_estimado", "numero")[
            :MAX_MAYORES
        ]
    ]
    totales = total_lineas(por_estado)
    return {
        "mes": mes.strftime("%Y-%m"),
        "filtros": {"areas": [_area(a) for a in areas] if areas is not None else None},
        "cantidad": totales["cantidad"],
        "valor_total": totales["valor"],
        "por_estado": lineas_por_estado(por_estado),
        "por_area": por_area,
        "mayores": mayores,
    }


def _linea(linea: LineaPaa) -> dict:
    return {
        "linea": linea.numero,
        "vigencia": linea.mes_inicio.year,
        "objeto": limpiar(linea.objeto),
        "valor_estimado": linea.valor_estimado,
        "mes_inicio": linea.mes_inicio.strftime("%Y-%m"),
        "modalidad": linea.get_modalidad_display(),
        "estado": linea.estado,
        "estado_visible": linea.estado_visible,
        "area": linea.area.sigla,
        "proyecto": linea.proyecto.codigo,
        "enlace": linea.enlace,
    }
