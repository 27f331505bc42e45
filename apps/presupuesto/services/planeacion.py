"""Writes on fiscal periods, assignments and PAA lines.

Lock order across every budget service (prevents deadlocks): Vigencia -> Asignacion -> Cdp -> Rp
-> movement; a PAA line is locked alone or right after the Vigencia, and updated last otherwise.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Sum

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.models import Actividad, Asignacion, LineaPaa, Proyecto, Vigencia
from apps.presupuesto.models.base import CERO
from apps.presupuesto.services import validacion
from apps.presupuesto.services.celdas import certificado_celda
from apps.presupuesto.services.errores import ErrorPresupuesto
from apps.presupuesto.services.transiciones import transicion


def crear_vigencia(*, anio: int, tope, activa: bool = False) -> Vigencia:
    """A new fiscal period; `activa=True` also deactivates the current one."""
    if not isinstance(anio, int) or not 2000 <= anio <= 2100:
        raise ErrorPresupuesto({"anio": ["Debe ser un año entre 2000 y 2100."]})
    tope = validacion.valor(tope, "tope", cero=True)
    with transaction.atomic():
        if Vigencia.objects.filter(anio=anio).exists():
            raise ErrorPresupuesto({"anio": [f"La vigencia {anio} ya existe."]})
        vigencia = Vigencia.objects.create(anio=anio, tope=tope)
        if activa:
            activar_vigencia(vigencia=vigencia)
    return vigencia


def activar_vigencia(*, vigencia: Vigencia) -> Vigencia:
    """Make `vigencia` the one active period (the partial unique constraint backs this up)."""
    with transaction.atomic():
        # Lock every period first: two concurrent activations then run one after the other.
        list(Vigencia.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
        Vigencia.objects.filter(activa=True).exclude(pk=vigencia.pk).update(activa=False)
        Vigencia.objects.filter(pk=vigencia.pk).update(activa=True)
    vigencia.activa = True
    return vigencia


def reservar_consecutivos(*, vigencia: Vigencia, campo: str, cantidad: int = 1) -> int:
    """Reserve `cantidad` consecutive numbers of a vigencia's counter; returns the first one."""
    if campo not in {"consecutivo_cdp", "consecutivo_rp", "consecutivo_linea"}:
        raise ValueError(campo)
    with transaction.atomic():
        actual = (
            Vigencia.objects.select_for_update().values_list(campo, flat=True).get(pk=vigencia.pk)
        )
        Vigencia.objects.filter(pk=vigencia.pk).update(**{campo: actual + cantidad})
    return actual + 1


def asignar(*, proyecto: Proyecto, area: Area, valor) -> Asignacion:
    """Set the money of `proyecto` assigned to `area` (creates the cell if missing).

    The assignments of a vigencia never add up to more than its ceiling, and a cell never drops
    below what its CDPs already certified.
    """
    valor = validacion.valor(valor, cero=True)
    with transaction.atomic():
        vigencia = Vigencia.objects.select_for_update().get(pk=proyecto.vigencia_id)
        asignacion, _ = Asignacion.objects.select_for_update().get_or_create(
            proyecto=proyecto, area=area
        )
        otras = (
            Asignacion.objects.filter(proyecto__vigencia=vigencia)
            .exclude(pk=asignacion.pk)
            .aggregate(total=Sum("valor"))["total"]
            or CERO
        )
        if otras + valor > vigencia.tope:
            raise ErrorPresupuesto(
                {
                    "valor": [
                        f"Las asignaciones superarían el tope de la vigencia ({vigencia.tope}); "
                        f"queda por asignar {vigencia.tope - otras}."
                    ]
                },
                code="tope_excedido",
            )
        certificado = certificado_celda(proyecto.pk, area.pk)
        if valor < certificado:
            raise ErrorPresupuesto(
                {"valor": [f"No puede ser menor que lo ya certificado en CDP ({certificado})."]},
                code="saldo_insuficiente",
            )
        asignacion.valor = valor
        asignacion.save(update_fields=["valor"])
    return asignacion


def crear_linea_paa(
    *,
    proyecto: Proyecto,
    area: Area,
    objeto: str,
    valor_estimado,
    mes_inicio: datetime.date,
    actividad: Actividad | None = None,
    modalidad: str = LineaPaa.Modalidad.CONTRATACION_DIRECTA,
    duracion_meses: int = 1,
    usuario=None,
) -> LineaPaa:
    """A draft PAA line of the project's vigencia, numbered with the vigencia's consecutive."""
    objeto = validacion.texto(objeto, "objeto", maximo=2000)
    valor_estimado = validacion.valor(valor_estimado, "valor_estimado")
    mes = validacion.fecha(mes_inicio, "mes_inicio")
    if mes is None:
        raise ErrorPresupuesto({"mes_inicio": ["Este campo es obligatorio."]})
    vigencia = proyecto.vigencia
    if mes.year != vigencia.anio:
        raise ErrorPresupuesto({"mes_inicio": [f"Debe ser un mes de la vigencia {vigencia.anio}."]})
    if actividad is not None and actividad.proyecto_id != proyecto.pk:
        raise ErrorPresupuesto({"actividad": ["La actividad no pertenece al proyecto."]})
    if modalidad not in LineaPaa.Modalidad.values:
        raise ErrorPresupuesto({"modalidad": ["Modalidad desconocida."]})
    if not isinstance(duracion_meses, int) or not 1 <= duracion_meses <= 36:
        raise ErrorPresupuesto({"duracion_meses": ["Debe estar entre 1 y 36 meses."]})
    with transaction.atomic():
        numero = reservar_consecutivos(vigencia=vigencia, campo="consecutivo_linea")
        return LineaPaa.objects.create(
            vigencia=vigencia,
            numero=numero,
            objeto=objeto,
            area=area,
            proyecto=proyecto,
            actividad=actividad,
            valor_estimado=valor_estimado,
            mes_inicio=mes.replace(day=1),
            duracion_meses=duracion_meses,
            modalidad=modalidad,
            creado_por=usuario,
        )


def _mover_linea(linea: LineaPaa, accion: str, **campos) -> LineaPaa:
    with transaction.atomic():
        actual = LineaPaa.objects.select_for_update().get(pk=linea.pk)
        actual.estado = transicion(
            estados.TRANSICIONES_LINEA, accion, actual.estado, "la línea del PAA"
        )
        for nombre, dato in campos.items():
            setattr(actual, nombre, dato)
        if (
            accion == "anular"
            and actual.cdps.exclude(
                estado__in=[estados.EstadoCdp.RECHAZADO, estados.EstadoCdp.ANULADO]
            ).exists()
        ):
            raise ErrorPresupuesto(
                "La línea tiene CDP en trámite o expedidos; anúlelos o recháceles primero.",
                code="transicion_invalida",
            )
        actual.save(update_fields=["estado", *campos, "actualizado_en"])
    return actual


def enviar_linea(*, linea: LineaPaa) -> LineaPaa:
    """The area sends its draft line to Planning for review."""
    return _mover_linea(linea, "enviar")


def aprobar_linea(*, linea: LineaPaa) -> LineaPaa:
    """Planning approves the line: it enters the plan and may back CDP requests."""
    return _mover_linea(linea, "aprobar", motivo_devolucion=None)


def devolver_linea(*, linea: LineaPaa, motivo: str) -> LineaPaa:
    """Planning returns the line to the area as a draft, with the reason."""
    return _mover_linea(
        linea, "devolver", motivo_devolucion=validacion.texto(motivo, "motivo", maximo=2000)
    )


def anular_linea(*, linea: LineaPaa, motivo: str) -> LineaPaa:
    """Take the line out of the plan (not once a CDP was requested on it and is still alive)."""
    return _mover_linea(
        linea, "anular", motivo_anulacion=validacion.texto(motivo, "motivo", maximo=2000)
    )


def cerrar_linea(*, linea: LineaPaa) -> LineaPaa:
    """Planning marks the contracting of the line as finished."""
    return _mover_linea(linea, "cerrar")
