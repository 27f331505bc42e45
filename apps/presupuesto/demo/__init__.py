"""Demo budget: the current vigencia, projects, assignments, PAA lines, CDP/RP, signatures.

Assignments are set so the areas land in every traffic-light colour (OTI rojo, OAP amarillo,
the rest verde). Base documents go through the services (their balances are real); the
`--escala` volume is bulk-inserted in a project of its own, on the green areas only. Safe to run
twice: everything is looked up by its natural key before being created.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from apps.firmas import services as firmas
from apps.firmas.models import Firma
from apps.presupuesto import services
from apps.presupuesto.demo.documentos import CDP_POR_ESCALA, CDPS, RPS
from apps.presupuesto.demo.masivo import cargar_masivo
from apps.presupuesto.demo.planeacion import (
    AREAS_MASIVAS,
    ASIGNACION_MASIVA,
    ASIGNACIONES,
    LINEAS,
    PROYECTOS,
    TOPE_BASE,
    M,
)
from apps.presupuesto.estados import EstadoLinea
from apps.presupuesto.models import (
    Actividad,
    Asignacion,
    Cdp,
    LineaPaa,
    MovimientoCdp,
    MovimientoRp,
    Proyecto,
    Rp,
    Vigencia,
)
from hub.operacion.demo import ContextoDemo

__all__ = ["CDP_POR_ESCALA", "cargar"]


def _hoy() -> datetime.date:
    return timezone.localdate()


def _hace(dias: int) -> datetime.date:
    """`dias` ago, but never before 15 January of this year."""
    hoy = _hoy()
    return max(hoy - datetime.timedelta(days=dias), datetime.date(hoy.year, 1, 15))


def _vigencia(ctx: ContextoDemo) -> Vigencia:
    anio = _hoy().year
    tope = TOPE_BASE + ASIGNACION_MASIVA * len(AREAS_MASIVAS) * ctx.escala
    vigencia = Vigencia.objects.filter(anio=anio).first()
    if vigencia is None:
        vigencia = services.crear_vigencia(anio=anio, tope=tope)
        # Activated when created only: a later run respects an administrator's choice.
        services.activar_vigencia(vigencia=vigencia)
    elif vigencia.tope < tope:
        # A larger --escala needs the room for its bulk documents.
        Vigencia.objects.filter(pk=vigencia.pk).update(tope=tope)
        vigencia.tope = tope
    return vigencia


def _proyectos(vigencia: Vigencia) -> tuple[dict[str, Proyecto], dict[tuple[str, str], Actividad]]:
    proyectos, actividades = {}, {}
    for codigo, (nombre, suyas) in PROYECTOS.items():
        proyecto = Proyecto.objects.filter(vigencia=vigencia, codigo=codigo).first()
        if proyecto is None:
            proyecto = Proyecto.objects.create(vigencia=vigencia, codigo=codigo, nombre=nombre)
        proyectos[codigo] = proyecto
        for cod, nom in suyas:
            actividades[(codigo, cod)], _ = Actividad.objects.get_or_create(
                proyecto=proyecto, codigo=cod, defaults={"nombre": nom}
            )
    return proyectos, actividades


def _asignaciones(proyectos, areas) -> None:
    for codigo, sigla, millones in ASIGNACIONES:
        existe = Asignacion.objects.filter(proyecto=proyectos[codigo], area=areas[sigla]).exists()
        if not existe:
            services.asignar(proyecto=proyectos[codigo], area=areas[sigla], valor=millones * M)


def _lineas(vigencia, proyectos, actividades, areas, usuario) -> dict[str, LineaPaa]:
    hoy = _hoy()
    hechas = {}
    for spec in LINEAS:
        mes = datetime.date(vigencia.anio, spec.mes or hoy.month, 1)
        linea = LineaPaa.objects.filter(
            vigencia=vigencia, objeto=spec.objeto, area=areas[spec.area]
        ).first()
        if linea is None:
            linea = services.crear_linea_paa(
                proyecto=proyectos[spec.proyecto],
                area=areas[spec.area],
                actividad=actividades[(spec.proyecto, spec.actividad)],
                objeto=spec.objeto,
                valor_estimado=spec.millones * M,
                mes_inicio=mes,
                modalidad=spec.modalidad,
                duracion_meses=random.Random(spec.clave).randint(2, 10),  # noqa: S311 - demo data
                usuario=usuario,
            )
            if spec.estado != EstadoLinea.BORRADOR:
                linea = services.enviar_linea(linea=linea)
            if spec.estado == EstadoLinea.ANULADA:
                linea = services.anular_linea(linea=linea, motivo="Salió del plan por austeridad.")
            elif spec.estado == EstadoLinea.APROBADA:
                linea = services.aprobar_linea(linea=linea)
        hechas[spec.clave] = linea
    return hechas


def _cdps(ctx, vigencia, proyectos, areas, lineas, usuarios) -> dict[str, Cdp]:
    solicitudes = ctx.objetos.get("solicitudes", {})
    financiera = usuarios.get("financiera")
    hechos = {}
    for spec in CDPS:
        cdp = Cdp.objects.filter(vigencia=vigencia, objeto=spec.objeto).first()
        if cdp is None:
            origen = solicitudes.get(spec.solicitud) if spec.solicitud else None
            cdp = services.solicitar_cdp(
                proyecto=proyectos[spec.proyecto],
                area=areas[spec.area],
                linea_paa=lineas[spec.linea] if spec.linea else None,
                objeto=spec.objeto,
                valor=spec.millones * M,
                numero_radicado=getattr(origen, "numero_radicado", None),
                dependencia="Grupo de Contratación" if spec.area == "SAF" else "",
                usuario=usuarios.get("planeacion"),
            )
            if spec.estado in ("en_revision", "expedido", "anulado"):
                cdp = services.revisar(documento=cdp)
            if spec.estado == "en_revision":
                cdp = services.marcar_expedicion(documento=cdp, estado_expedicion="en_firma")
            elif spec.estado == "devuelto":
                cdp = services.devolver(documento=cdp, motivo=spec.motivo)
            elif spec.estado == "rechazado":
                cdp = services.rechazar(documento=cdp, motivo=spec.motivo)
            elif spec.estado in ("expedido", "anulado"):
                cdp = services.expedir_cdp(
                    cdp=cdp,
                    numero_externo=spec.externo,
                    fecha_expedicion=_hace(spec.dias),
                    usuario=financiera,
                )
                if spec.estado == "anulado":
                    cdp = services.anular_cdp(cdp=cdp, motivo=spec.motivo, usuario=financiera)
        hechos[spec.clave] = cdp
    return hechos


def _movimientos_cdp(cdps, usuario) -> None:
    """An addition on the Plan de Acción CDP (held by its line), a reduction on the cloud one."""
    plan = cdps["plan-accion"]
    if not plan.movimientos.exists():
        services.registrar_movimiento_cdp(
            cdp=plan,
            tipo="adicion",
            valor=60 * M,
            descripcion="Adición para cubrir el seguimiento del cuarto trimestre.",
            fecha=_hace(90),
            usuario=usuario,
        )
    nube = cdps["nube"]
    if not nube.movimientos.exists():
        services.registrar_movimiento_cdp(
            cdp=nube,
            tipo="reduccion",
            valor=100 * M,
            descripcion="Reducción por menor valor ofertado en la licitación.",
            fecha=_hace(150),
            usuario=usuario,
        )


def _rps(cdps, usuario) -> list[Rp]:
    hechos = []
    for clave, beneficiario, documento, objeto, millones, pagos, anular in RPS:
        cdp = cdps[clave]
        rp = Rp.objects.filter(cdp=cdp, beneficiario=beneficiario).first()
        if rp is None:
            inicio = _hace(150)
            rp = services.solicitar_rp(
                cdp=cdp,
                beneficiario=beneficiario,
                documento_beneficiario=documento,
                objeto=objeto,
                valor=millones * M,
                fecha_inicio=inicio,
                fecha_fin=datetime.date(inicio.year, 12, 31),
                usuario=usuario,
            )
            rp = services.expedir_rp(
                rp=rp,
                numero_externo=str(3000 + Rp.objects.filter(vigencia=cdp.vigencia).count()),
                fecha_expedicion=_hace(140),
                usuario=usuario,
            )
            for n, pago in enumerate(pagos, start=1):
                services.registrar_movimiento_rp(
                    rp=rp,
                    tipo="obligacion",
                    valor=pago * M,
                    descripcion=f"Obligación {n}: cuenta de cobro aprobada por supervisión.",
                    fecha=_hace(120 - 30 * n),
                    usuario=usuario,
                )
            if clave == "papeleria":
                services.registrar_movimiento_rp(
                    rp=rp,
                    tipo="reduccion",
                    valor=20 * M,
                    descripcion="Reducción por entregas no requeridas.",
                    usuario=usuario,
                )
            if anular:
                rp = services.anular_rp(rp=rp, motivo="El proveedor desistió.", usuario=usuario)
        hechos.append(rp)
    return hechos


def _firmar(documento, usuario, rol: str) -> Firma:
    """One signature per (document, person, role): found again on the second run."""
    firmante = usuario.get_full_name() or usuario.username
    existente = Firma.objects.de(documento).filter(firmante=firmante, rol=rol).first()
    if existente is not None:
        return existente
    return firmas.firmar(documento=documento, firmante=firmante, rol=rol, usuario=usuario)


def _firmas(cdps, rps, lineas, usuarios) -> dict[str, str]:
    financiera, completo = usuarios["financiera"], usuarios["completo"]
    planeacion = usuarios["planeacion"]
    plan = Cdp.objects.get(pk=cdps["plan-accion"].pk)
    valida = _firmar(plan, completo, "Ordenadora del gasto")
    _firmar(plan, financiera, "Profesional de presupuesto")
    _firmar(lineas["plan-accion"], planeacion, "Profesional de planeación")
    _firmar(MovimientoCdp.objects.get(cdp=plan, numero=1), completo, "Ordenadora del gasto")
    rp = next(r for r in rps if r.cdp_id == plan.pk)
    _firmar(rp, completo, "Ordenadora del gasto")
    primera = MovimientoRp.objects.filter(rp=rp, tipo="obligacion").order_by("numero").first()
    _firmar(primera, financiera, "Profesional de presupuesto")
    # The duplicated CDP was signed, then annulled: its signature was annulled with it.
    anulada = _firmar(cdps["sede-duplicado"], completo, "Ordenadora del gasto")
    if not anulada.anulada:
        anulada = firmas.anular(
            firma=anulada,
            motivo="El CDP se anuló por duplicidad y el trámite se reinició.",
            motivo_publico=True,  # no personal data: the verification page may show it
        )
    return {"valida": str(valida.token), "anulada": str(anulada.token)}


def cargar(ctx: ContextoDemo) -> None:
    areas, usuarios = ctx.objetos["areas"], ctx.objetos["usuarios"]
    with transaction.atomic():
        vigencia = _vigencia(ctx)
        proyectos, actividades = _proyectos(vigencia)
        _asignaciones(proyectos, areas)
        lineas = _lineas(vigencia, proyectos, actividades, areas, usuarios.get("planeacion"))
        cdps = _cdps(ctx, vigencia, proyectos, areas, lineas, usuarios)
        _movimientos_cdp(cdps, usuarios.get("financiera"))
        rps = _rps(cdps, usuarios.get("financiera"))
        # The legal defence contract is fully obligated: its PAA line is closed.
        defensa = LineaPaa.objects.get(pk=lineas["defensa"].pk)
        if defensa.estado == EstadoLinea.EN_EJECUCION:
            services.cerrar_linea(linea=defensa)
        tokens = _firmas(cdps, rps, lineas, usuarios)
    masivos = cargar_masivo(ctx, vigencia, areas)

    plan = Cdp.objects.get(pk=cdps["plan-accion"].pk)
    rp_plan = next(r for r in rps if r.cdp_id == plan.pk)
    ctx.objetos["presupuesto"] = {"vigencia": vigencia, "cdps": cdps, "lineas": lineas}
    ctx.salida["cdp"] = plan.numero
    ctx.salida["cdp_externo"] = plan.numero_externo
    ctx.salida["rp"] = rp_plan.numero
    ctx.salida["firmas"] = tokens
    ctx.anotar(
        f"Presupuesto {vigencia.anio}: {Cdp.objects.filter(vigencia=vigencia).count()} CDP, "
        f"{Rp.objects.filter(vigencia=vigencia).count()} RP, "
        f"{LineaPaa.objects.filter(vigencia=vigencia).count()} líneas del PAA "
        f"(+{masivos} CDP de escala). Ejemplos: {plan.numero} (externo {plan.numero_externo}), "
        f"{rp_plan.numero}."
    )
    ctx.anotar("Verificación de firmas (la página que abre el código QR, y su API JSON):")
    for estado in ("valida", "anulada"):
        ctx.anotar(
            f"  {'válida' if estado == 'valida' else 'anulada':<8} "
            f"{ctx.base}/presupuesto/verificar/{tokens[estado]}   "
            f"API: {ctx.base}/presupuesto/api/v1/firmas/verificar/{tokens[estado]}"
        )
