"""Budget reads for tools and screens: document lookups, search, and the dashboard figures.

Every function takes the user and returns only what the user's areas allow. Dashboard figures
come from GROUP BY queries (a fixed number per call, whatever the volume), folded in Python
over the groups, never over the rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Case, Count, IntegerField, Q, QuerySet, Sum, Value, When

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.models import Actividad, Asignacion, Cdp, LineaPaa, Proyecto, Rp, Vigencia
from apps.presupuesto.models.base import CERO, areas_de, usuario_activo, ve_todas_las_areas
from hub.texto import limpiar, normalizar

# Traffic light of availability: share of the assignment not yet certified in CDPs.
UMBRAL_VERDE = Decimal("30")  # 30 % or more still available
UMBRAL_AMARILLO = Decimal("10")  # from 10 % up to 30 %; below 10 % (or nothing assigned): rojo
MAX_COINCIDENCIAS = 10
MAX_MAYORES = 5
CENTAVO = Decimal("0.01")


class FiltroInvalido(LookupError):
    """A project or area filter that matches nothing the user may see (or too many)."""

    def __init__(self, campo: str, texto: str, mensaje: str, opciones: list[str] | None = None):
        super().__init__(mensaje)
        self.campo = campo
        self.texto = texto
        self.mensaje = mensaje
        self.opciones = opciones or []


def _sin_coincidencias(campo: str, texto: str) -> FiltroInvalido:
    nombre = "proyecto" if campo == "proyecto" else "área"
    return FiltroInvalido(campo, texto, f"Ningún {nombre} visible coincide con «{texto}».")


def suma(valor: Decimal | None) -> Decimal:
    """An aggregated amount with exactly two decimals (0.00 for an empty group).

    SQLite returns SUM over decimals as a float with 15 significant digits (200000.100000000);
    quantizing gives back the stored cents on every database.
    """
    return (valor or CERO).quantize(CENTAVO, rounding=ROUND_HALF_UP)


def vigencia_activa() -> Vigencia | None:
    return Vigencia.objects.activa()


# --- matching of filters --------------------------------------------------------------------


def areas_coincidentes(texto: str, user=None) -> list[Area]:
    """Areas by id, exact abbreviation or name, else every word in the name (accents apart).

    Areas are few: one query loads them, the tiers are decided in Python. With `user`, only
    the areas the user may see.
    """
    texto = (texto or "").strip()
    if not texto:
        return []
    qs = Area.objects.all()
    if user is not None:
        if not usuario_activo(user):
            return []
        if not ve_todas_las_areas(user):
            qs = qs.filter(pk__in=areas_de(user))
    todas = list(qs.order_by("sigla"))
    buscado = normalizar(texto)
    palabras = buscado.split(" ")
    niveles = [
        [a for a in todas if texto.isdigit() and str(a.pk) == texto],
        [a for a in todas if normalizar(a.sigla) == buscado],
        [a for a in todas if normalizar(a.nombre) == buscado],
        [a for a in todas if all(p in normalizar(a.nombre) for p in palabras)],
    ]
    return next((nivel for nivel in niveles if nivel), [])


def proyectos_coincidentes(texto: str, user=None, vigencia: Vigencia | None = None) -> QuerySet:
    """Projects of the vigencia by id, exact code, else every word in code or name."""
    qs = Proyecto.objects.all()
    if vigencia is not None:
        qs = qs.de_vigencia(vigencia)
    if user is not None:
        qs = qs.visibles_para(user)
    return qs.coincidentes(texto)


def _resolver_areas(area, user) -> list[Area] | None:
    if area is None:
        return None
    if isinstance(area, Area):
        if not usuario_activo(user):
            raise _sin_coincidencias("area", area.sigla)
        if ve_todas_las_areas(user) or user.areas.filter(pk=area.pk).exists():
            return [area]
        raise _sin_coincidencias("area", area.sigla)
    encontradas = areas_coincidentes(str(area), user)
    if not encontradas:
        raise _sin_coincidencias("area", str(area))
    return encontradas


def _resolver_proyectos(proyecto, user, vigencia: Vigencia) -> tuple[QuerySet, list[dict]] | None:
    if proyecto is None:
        return None
    base = Proyecto.objects.de_vigencia(vigencia).visibles_para(user)
    if isinstance(proyecto, Proyecto):
        qs, texto = base.filter(pk=proyecto.pk), proyecto.codigo
    else:
        qs, texto = base.coincidentes(str(proyecto)), str(proyecto)
    muestra = list(
        qs.order_by("codigo").values("id", "codigo", "nombre", "activo")[: MAX_COINCIDENCIAS + 1]
    )
    if not muestra:
        raise _sin_coincidencias("proyecto", texto)
    return qs, muestra


# --- figures --------------------------------------------------------------------------------


def porcentaje(parte: Decimal, total: Decimal) -> Decimal:
    """parte / total as a percentage with 2 decimals (0 when nothing is assigned)."""
    if not total:
        return Decimal("0.00")
    return (parte * 100 / total).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def semaforo(disponible: Decimal, asignado: Decimal) -> str:
    """verde / amarillo / rojo by the share of the assignment still available."""
    if asignado <= 0:
        return "rojo"
    libre = disponible * 100 / asignado
    if libre >= UMBRAL_VERDE:
        return "verde"
    if libre >= UMBRAL_AMARILLO:
        return "amarillo"
    return "rojo"


@dataclass
class Cifras:
    """Sums of one scope (a cell, a project, an area or everything)."""

    asignado: Decimal = CERO
    programado: Decimal = CERO
    certificado: Decimal = CERO
    comprometido: Decimal = CERO
    obligado: Decimal = CERO

    def sumar(self, otra: Cifras) -> None:
        self.asignado += otra.asignado
        self.programado += otra.programado
        self.certificado += otra.certificado
        self.comprometido += otra.comprometido
        self.obligado += otra.obligado

    @property
    def disponible(self) -> Decimal:
        return self.asignado - self.certificado

    def como_dict(self) -> dict:
        return {
            "asignado": self.asignado,
            "programado": self.programado,
            "certificado": self.certificado,
            "comprometido": self.comprometido,
            "obligado": self.obligado,
            "disponible": self.disponible,
            "porcentaje_disponible": porcentaje(self.disponible, self.asignado),
            "avance": porcentaje(self.comprometido, self.asignado),
            "semaforo": semaforo(self.disponible, self.asignado),
        }


@dataclass
class _Consolidado:
    celdas: dict[tuple[int, int], Cifras] = field(default_factory=dict)
    proyectos: dict[int, dict] = field(default_factory=dict)
    areas: dict[int, dict] = field(default_factory=dict)
    lineas: dict[str, tuple[int, Decimal]] = field(default_factory=dict)

    def celda(self, fila: dict, proyecto: str, area: str) -> Cifras:
        pid, aid = fila[f"{proyecto}_id"], fila[f"{area}_id"]
        self.proyectos.setdefault(
            pid,
            {
                "id": pid,
                "codigo": fila[f"{proyecto}__codigo"],
                "nombre": fila[f"{proyecto}__nombre"],
            },
        )
        self.areas.setdefault(
            aid, {"id": aid, "sigla": fila[f"{area}__sigla"], "nombre": fila[f"{area}__nombre"]}
        )
        return self.celdas.setdefault((pid, aid), Cifras())

    def total(self) -> Cifras:
        total = Cifras()
        for cifras in self.celdas.values():
            total.sumar(cifras)
        return total

    def agrupado(self, indice: int, nombres: dict[int, dict], orden: str) -> list[dict]:
        grupos: dict[int, Cifras] = {}
        for clave, cifras in self.celdas.items():
            grupos.setdefault(clave[indice], Cifras()).sumar(cifras)
        filas = [{**nombres[k], **c.como_dict()} for k, c in grupos.items()]
        return sorted(filas, key=lambda f: f[orden])


def _valores(qs: QuerySet, proyecto: str, area: str, *extra: str) -> QuerySet:
    # order_by() drops Meta.ordering, which would otherwise join the GROUP BY.
    return qs.values(
        f"{proyecto}_id",
        f"{proyecto}__codigo",
        f"{proyecto}__nombre",
        f"{area}_id",
        f"{area}__sigla",
        f"{area}__nombre",
        *extra,
    ).order_by()


def _alcance(user, vigencia: Vigencia, proyectos: QuerySet | None, areas: list[Area] | None):
    """The four visible, filtered querysets the figures come from."""
    asig = Asignacion.objects.visibles_para(user).de_vigencia(vigencia)
    lin = LineaPaa.objects.visibles_para(user).de_vigencia(vigencia)
    cdp = Cdp.objects.visibles_para(user).de_vigencia(vigencia).certificados()
    rp = Rp.objects.visibles_para(user).de_vigencia(vigencia).comprometidos()
    if proyectos is not None:
        ids = proyectos.values("pk")
        asig, lin, cdp = (q.filter(proyecto__in=ids) for q in (asig, lin, cdp))
        rp = rp.filter(cdp__proyecto__in=ids)
    if areas is not None:
        ids_areas = [a.pk for a in areas]
        asig, lin, cdp = (q.filter(area__in=ids_areas) for q in (asig, lin, cdp))
        rp = rp.filter(cdp__area__in=ids_areas)
    return asig, lin, cdp, rp


def _consolidar(asig, lin, cdp, rp) -> _Consolidado:
    """Four GROUP BY queries (assignments, PAA lines, CDP, RP) folded into cells."""
    datos = _Consolidado()
    for fila in _valores(asig, "proyecto", "area").annotate(total=Sum("valor")):
        datos.celda(fila, "proyecto", "area").asignado += suma(fila["total"])
    filas = _valores(lin, "proyecto", "area", "estado").annotate(
        cantidad=Count("id"), total=Sum("valor_estimado")
    )
    for fila in filas:
        celda = datos.celda(fila, "proyecto", "area")
        total = suma(fila["total"])
        if fila["estado"] in estados.LINEAS_PROGRAMADAS:
            celda.programado += total
        cantidad, valor = datos.lineas.get(fila["estado"], (0, CERO))
        datos.lineas[fila["estado"]] = (cantidad + fila["cantidad"], valor + total)
    for fila in _valores(cdp, "proyecto", "area").annotate(total=Sum("valor_actual")):
        datos.celda(fila, "proyecto", "area").certificado += suma(fila["total"])
    filas = _valores(rp, "cdp__proyecto", "cdp__area").annotate(
        total=Sum("valor_actual"), obligado=Sum("obligado")
    )
    for fila in filas:
        celda = datos.celda(fila, "cdp__proyecto", "cdp__area")
        celda.comprometido += suma(fila["total"])
        celda.obligado += suma(fila["obligado"])
    return datos


def _lineas_por_estado(lineas: dict[str, tuple[int, Decimal]]) -> list[dict]:
    return [
        {
            "estado": estado.value,
            "estado_visible": estado.label,
            "cantidad": lineas.get(estado.value, (0, CERO))[0],
            "valor": lineas.get(estado.value, (0, CERO))[1],
        }
        for estado in EstadoLinea
    ]


def _total_lineas(lineas: dict[str, tuple[int, Decimal]]) -> dict:
    vivas = [v for k, v in lineas.items() if k != EstadoLinea.ANULADA]
    return {"cantidad": sum(c for c, _ in vivas), "valor": sum((v for _, v in vivas), CERO)}


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
    areas = _resolver_areas(area, user)
    resueltos = _resolver_proyectos(proyecto, user, vigencia)
    proyectos, muestra = resueltos if resueltos else (None, None)
    datos = _consolidar(*_alcance(user, vigencia, proyectos, areas))
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
        "lineas_paa": _lineas_por_estado(datos.lineas),
        "lineas_paa_total": _total_lineas(datos.lineas),
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
    encontradas = _resolver_areas(area, user)
    if len(encontradas) > 1:
        raise FiltroInvalido(
            "area",
            str(area),
            f"Varias áreas coinciden con «{area}»; indique la sigla.",
            [a.sigla for a in encontradas],
        )
    elegida = encontradas[0]
    asig, lin, cdp, rp = _alcance(user, vigencia, None, [elegida])
    datos = _consolidar(asig, lin, cdp, rp)
    cdp_todos = Cdp.objects.visibles_para(user).de_vigencia(vigencia).filter(area=elegida)
    rp_todos = Rp.objects.visibles_para(user).de_vigencia(vigencia).filter(cdp__area=elegida)
    return {
        "vigencia": vigencia.anio,
        "area": _area(elegida),
        **datos.total().como_dict(),
        "lineas_paa": _lineas_por_estado(datos.lineas),
        "lineas_paa_total": _total_lineas(datos.lineas),
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
    areas = _resolver_areas(area, user)
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
    totales = _total_lineas(por_estado)
    return {
        "mes": mes.strftime("%Y-%m"),
        "filtros": {"areas": [_area(a) for a in areas] if areas is not None else None},
        "cantidad": totales["cantidad"],
        "valor_total": totales["valor"],
        "por_estado": _lineas_por_estado(por_estado),
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


# --- documents ------------------------------------------------------------------------------


def _fecha(valor: datetime.date | None) -> str | None:
    return valor.isoformat() if valor else None


def _texto(valor: str | None) -> str | None:
    return limpiar(valor) if valor else None


def ficha_cdp(user, numero: str) -> dict | None:
    """estado_cdp's fields for a CDP the user may see, by number or external number (1 query)."""
    cdp = (
        Cdp.objects.visibles_para(user)
        .por_numero(numero)
        .select_related("area", "proyecto", "linea_paa", "vigencia")
        .annotate(cantidad_movimientos=Count("movimientos"))
        .first()
    )
    if cdp is None:
        return None
    return {
        "encontrado": True,
        "numero_cdp": cdp.numero,
        "numero_externo": cdp.numero_externo,
        "numero_radicado": cdp.numero_radicado,
        "estado": cdp.estado,
        "estado_visible": cdp.estado_visible,
        "estado_descripcion": cdp.estado_descripcion,
        "estado_expedicion": cdp.estado_expedicion,
        "area": cdp.area.nombre,
        "area_sigla": cdp.area.sigla,
        "dependencia": _texto(cdp.dependencia),
        "objeto": limpiar(cdp.objeto),
        "valor_inicial": cdp.valor_inicial,
        "valor_actual": cdp.valor_actual,
        "comprometido": cdp.comprometido,
        "saldo": cdp.saldo,
        "fecha_expedicion": _fecha(cdp.fecha_expedicion),
        "movimientos": cdp.cantidad_movimientos,
        "motivo_devolucion": _texto(cdp.motivo_devolucion),
        "motivo_rechazo": _texto(cdp.motivo_rechazo),
        "vigencia": cdp.vigencia.anio,
        "proyecto": cdp.proyecto.codigo,
        "linea_paa": cdp.linea_paa.numero if cdp.linea_paa else None,
        "enlace": cdp.enlace,
    }


def ficha_rp(user, numero: str) -> dict | None:
    """estado_rp's fields for an RP the user may see (the beneficiary's document never)."""
    rp = (
        Rp.objects.visibles_para(user)
        .por_numero(numero)
        .select_related("cdp", "cdp__area", "vigencia")
        .annotate(cantidad_movimientos=Count("movimientos"))
        .first()
    )
    if rp is None:
        return None
    return {
        "encontrado": True,
        "numero_rp": rp.numero,
        "numero_externo": rp.numero_externo,
        "numero_radicado": rp.numero_radicado,
        "estado": rp.estado,
        "estado_visible": rp.estado_visible,
        "estado_descripcion": rp.estado_descripcion,
        "estado_expedicion": rp.estado_expedicion,
        "cdp": rp.cdp.numero,
        "beneficiario": limpiar(rp.beneficiario),
        "objeto": limpiar(rp.objeto),
        "valor_inicial": rp.valor_inicial,
        "valor_actual": rp.valor_actual,
        "obligado": rp.obligado,
        "fecha_expedicion": _fecha(rp.fecha_expedicion),
        "fecha_inicio": _fecha(rp.fecha_inicio),
        "fecha_fin": _fecha(rp.fecha_fin),
        "motivo_devolucion": _texto(rp.motivo_devolucion),
        "motivo_rechazo": _texto(rp.motivo_rechazo),
        "movimientos": rp.cantidad_movimientos,
        "area": rp.cdp.area.nombre,
        "vigencia": rp.vigencia.anio,
        "enlace": rp.enlace,
    }


def buscar(user, texto: str, *, limite: int = 5) -> dict:
    """busqueda_global's presupuesto scope: CDP and RP the user may see (4 queries).

    Exact number matches come first, then the most recent documents.
    """
    buscado = (texto or "").strip().upper()
    if not normalizar(texto):
        return {"total": 0, "mostrados": 0, "resultados": []}
    cdps = Cdp.objects.visibles_para(user).buscar(texto)
    rps = Rp.objects.visibles_para(user).buscar(texto)
    total = cdps.count() + rps.count()
    exacto = Q(numero=buscado) | Q(numero_externo=buscado)
    items = [
        _item_cdp(c, buscado)
        for c in cdps.select_related("area").order_by(
            _primero(exacto), "-vigencia__anio", "-numero"
        )[:limite]
    ] + [
        _item_rp(r, buscado)
        for r in rps.select_related("cdp__area").order_by(
            _primero(exacto), "-vigencia__anio", "-numero"
        )[:limite]
    ]
    items.sort(key=lambda i: (not i["exacto"], -i["_orden"]))
    for item in items:
        item.pop("_orden")
    return {"total": total, "mostrados": min(len(items), limite), "resultados": items[:limite]}


def _primero(condicion: Q) -> Case:
    return Case(When(condicion, then=Value(0)), default=Value(1), output_field=IntegerField())


def _item_cdp(cdp: Cdp, buscado: str) -> dict:
    return {
        "tipo": "cdp",
        "numero": cdp.numero,
        "numero_externo": cdp.numero_externo,
        "objeto": limpiar(cdp.objeto),
        "estado": cdp.estado,
        "estado_visible": cdp.estado_visible,
        "area": cdp.area.sigla,
        "valor_actual": cdp.valor_actual,
        "saldo": cdp.saldo,
        "enlace": cdp.enlace,
        "exacto": buscado in (cdp.numero, cdp.numero_externo),
        "_orden": cdp.creado_en.timestamp(),
    }


def _item_rp(rp: Rp, buscado: str) -> dict:
    return {
        "tipo": "rp",
        "numero": rp.numero,
        "numero_externo": rp.numero_externo,
        "objeto": limpiar(rp.objeto),
        "beneficiario": limpiar(rp.beneficiario),
        "estado": rp.estado,
        "estado_visible": rp.estado_visible,
        "area": rp.cdp.area.sigla,
        "cdp": rp.cdp.numero,
        "valor_actual": rp.valor_actual,
        "enlace": rp.enlace,
        "exacto": buscado in (rp.numero, rp.numero_externo),
        "_orden": rp.creado_en.timestamp(),
    }
