"""Writes on CDP, RP and their movements: review flow, expedition, balances.

Balances are changed only here and only under row locks, always taken in the order
Asignacion -> Cdp -> Rp -> movement (a PAA line is only updated last), so concurrent operations
queue instead of deadlocking, and
two RPs racing for the last pesos of a CDP can never both win.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import IntegrityError, models, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.estados import (
    EstadoCdp,
    EstadoExpedicion,
    EstadoMovimiento,
    EstadoRp,
    TipoMovimientoCdp,
    TipoMovimientoRp,
)
from apps.presupuesto.models import (
    Asignacion,
    Cdp,
    LineaPaa,
    MovimientoCdp,
    MovimientoRp,
    Proyecto,
    Rp,
)
from apps.presupuesto.models.base import CERO
from apps.presupuesto.services import comun
from apps.presupuesto.services.comun import ErrorPresupuesto
from apps.presupuesto.services.planeacion import _certificado_celda, reservar_consecutivos

Documento = Cdp | Rp
Movimiento = MovimientoCdp | MovimientoRp


# --- review flow shared by CDP and RP -------------------------------------------------------


def _flujo(documento: Documento) -> tuple[type[models.Model], dict, str]:
    if isinstance(documento, Cdp):
        return Cdp, estados.TRANSICIONES_CDP, "el CDP"
    if isinstance(documento, Rp):
        return Rp, estados.TRANSICIONES_RP, "el RP"
    raise TypeError(f"No es un CDP ni un RP: {type(documento).__name__}")


def _mover(documento: Documento, accion: str, **campos) -> Documento:
    modelo, tabla, etiqueta = _flujo(documento)
    with transaction.atomic():
        actual = modelo.objects.select_for_update().get(pk=documento.pk)
        actual.estado = comun.transicion(tabla, accion, actual.estado, etiqueta)
        for nombre, dato in campos.items():
            setattr(actual, nombre, dato)
        actual.save(update_fields=["estado", *campos, "actualizado_en"])
    return actual


def revisar(*, documento: Documento) -> Documento:
    """The financial area takes a requested CDP or RP into review."""
    return _mover(documento, "revisar")


def marcar_expedicion(*, documento: Documento, estado_expedicion: str | None) -> Documento:
    """Record the sub-step of a document under review (financial system, signature)."""
    if estado_expedicion is not None and estado_expedicion not in EstadoExpedicion.values:
        raise ErrorPresupuesto({"estado_expedicion": ["Valor desconocido."]})
    modelo, _, etiqueta = _flujo(documento)
    with transaction.atomic():
        actual = modelo.objects.select_for_update().get(pk=documento.pk)
        if actual.estado != "en_revision":
            raise ErrorPresupuesto(
                f"Solo se marca la expedición de {etiqueta} en revisión.",
                code="transicion_invalida",
            )
        actual.estado_expedicion = estado_expedicion
        actual.save(update_fields=["estado_expedicion", "actualizado_en"])
    return actual


def devolver(*, documento: Documento, motivo: str) -> Documento:
    """Return a request to the requesting area for correction, with the reason."""
    return _mover(
        documento,
        "devolver",
        motivo_devolucion=comun.texto(motivo, "motivo", maximo=2000),
        estado_expedicion=None,
    )


def rechazar(*, documento: Documento, motivo: str) -> Documento:
    """Reject a request for good, with the reason."""
    return _mover(
        documento,
        "rechazar",
        motivo_rechazo=comun.texto(motivo, "motivo", maximo=2000),
        estado_expedicion=None,
    )


def reenviar(*, documento: Documento, objeto: str | None = None, valor=None) -> Documento:
    """The requesting area sends a returned request again, optionally corrected."""
    campos: dict = {}
    if objeto is not None:
        campos["objeto"] = comun.texto(objeto, "objeto", maximo=2000)
    if valor is not None:
        nuevo = comun.valor(valor)
        campos.update(valor_inicial=nuevo, valor_actual=nuevo)
        if isinstance(documento, Cdp):
            campos["saldo"] = nuevo
    with transaction.atomic():
        actual = _mover(documento, "reenviar", **campos)
        if valor is not None:
            _verificar_disponible_solicitud(actual)
    return actual


def _verificar_disponible_solicitud(documento: Documento) -> None:
    """Early check for a request (the binding one runs again, locked, at expedition)."""
    if isinstance(documento, Cdp):
        _disponible_celda(documento.proyecto_id, documento.area_id, documento.valor_actual)
    else:
        cdp = Cdp.objects.get(pk=documento.cdp_id)
        if cdp.estado not in estados.CDP_CON_SALDO or documento.valor_actual > cdp.saldo:
            raise ErrorPresupuesto(
                {"valor": [f"Supera el saldo del CDP {cdp.numero} ({_saldo_de(cdp)})."]},
                code="saldo_insuficiente",
            )


def _saldo_de(cdp: Cdp) -> Decimal:
    return cdp.saldo if cdp.estado in estados.CDP_CON_SALDO else CERO


def _disponible_celda(proyecto_id: int, area_id: int, valor: Decimal, *, asignacion=None):
    """Raise unless `valor` more fits in the (project, area) assignment."""
    if asignacion is None:
        asignacion = Asignacion.objects.filter(proyecto_id=proyecto_id, area_id=area_id).first()
    if asignacion is None:
        raise ErrorPresupuesto("El área no tiene asignación en el proyecto.", code="sin_asignacion")
    disponible = asignacion.valor - _certificado_celda(proyecto_id, area_id)
    if valor > disponible:
        raise ErrorPresupuesto(
            {"valor": [f"Supera lo disponible del área en el proyecto ({max(disponible, CERO)})."]},
            code="saldo_insuficiente",
        )


def _bloquear_asignacion(proyecto_id: int, area_id: int) -> Asignacion:
    asignacion = (
        Asignacion.objects.select_for_update()
        .filter(proyecto_id=proyecto_id, area_id=area_id)
        .first()
    )
    if asignacion is None:
        raise ErrorPresupuesto("El área no tiene asignación en el proyecto.", code="sin_asignacion")
    return asignacion


def _guardar_con_externo(documento: Documento, campos: list[str]) -> None:
    """Save; a number the financial system already gave in this vigencia is a clear error."""
    if documento.numero_externo is not None:
        repetido = (
            type(documento)
            .objects.filter(
                vigencia_id=documento.vigencia_id, numero_externo=documento.numero_externo
            )
            .exclude(pk=documento.pk)
            .exists()
        )
        if repetido:
            raise ErrorPresupuesto(
                {"numero_externo": ["Ya existe en la vigencia."]}, code="numero_duplicado"
            )
    try:
        with transaction.atomic():
            documento.save(update_fields=campos)
    except IntegrityError:
        raise ErrorPresupuesto(
            {"numero_externo": ["Ya existe en la vigencia."]}, code="numero_duplicado"
        ) from None


def _cuadrar_cdp(cdp: Cdp) -> None:
    """saldo = valor_actual - comprometido; an issued CDP is agotado exactly when saldo is 0."""
    cdp.saldo = cdp.valor_actual - cdp.comprometido
    if cdp.estado in estados.CDP_CON_SALDO:
        cdp.estado = EstadoCdp.AGOTADO if cdp.saldo == 0 else EstadoCdp.EXPEDIDO


def _cuadrar_rp(rp: Rp) -> None:
    """An issued RP is ejecutado exactly when all its value is obligated."""
    if rp.estado in estados.RP_VIGENTE:
        rp.estado = EstadoRp.EJECUTADO if rp.obligado == rp.valor_actual else EstadoRp.EXPEDIDO


_CAMPOS_SALDO_CDP = ["valor_actual", "comprometido", "saldo", "estado", "actualizado_en"]


# --- CDP ------------------------------------------------------------------------------------


def solicitar_cdp(
    *,
    objeto: str,
    valor,
    proyecto: Proyecto | None = None,
    area: Area | None = None,
    linea_paa: LineaPaa | None = None,
    numero_radicado: str | None = None,
    dependencia: str = "",
    usuario=None,
) -> Cdp:
    """Register a CDP request on a (project, area) cell of the active vigencia."""
    objeto = comun.texto(objeto, "objeto", maximo=2000)
    valor = comun.valor(valor)
    radicado = comun.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    dependencia = comun.texto(dependencia, "dependencia", maximo=150, vacio=True)
    if linea_paa is not None:
        if proyecto is not None and proyecto.pk != linea_paa.proyecto_id:
            raise ErrorPresupuesto({"linea_paa": ["La línea es de otro proyecto."]})
        if area is not None and area.pk != linea_paa.area_id:
            raise ErrorPresupuesto({"linea_paa": ["La línea es de otra área."]})
        proyecto, area = linea_paa.proyecto, linea_paa.area
    if proyecto is None:
        raise ErrorPresupuesto({"proyecto": ["Este campo es obligatorio."]})
    if area is None:
        raise ErrorPresupuesto({"area": ["Este campo es obligatorio."]})
    vigencia = proyecto.vigencia
    if not vigencia.activa:
        raise ErrorPresupuesto({"proyecto": ["Solo se solicitan CDP en la vigencia activa."]})
    with transaction.atomic():
        consecutivo = reservar_consecutivos(vigencia=vigencia, campo="consecutivo_cdp")
        if linea_paa is not None:
            # Locked: a concurrent annulment of the line waits for this request, or wins.
            estado_linea = (
                LineaPaa.objects.select_for_update()
                .values_list("estado", flat=True)
                .get(pk=linea_paa.pk)
            )
            if estado_linea not in estados.LINEAS_CON_CDP:
                raise ErrorPresupuesto(
                    {"linea_paa": ["La línea del PAA no está aprobada."]},
                    code="transicion_invalida",
                )
        _disponible_celda(proyecto.pk, area.pk, valor)
        return Cdp.objects.create(
            vigencia=vigencia,
            numero=f"CDP-{vigencia.anio}-{consecutivo:05d}",
            numero_radicado=radicado,
            linea_paa=linea_paa,
            proyecto=proyecto,
            area=area,
            dependencia=dependencia,
            objeto=objeto,
            valor_inicial=valor,
            valor_actual=valor,
            saldo=valor,
            solicitado_por=usuario,
        )


def expedir_cdp(
    *,
    cdp: Cdp,
    numero_externo: str | None = None,
    fecha_expedicion: datetime.date | None = None,
    usuario=None,
) -> Cdp:
    """Issue a requested CDP: its value must still fit in its (project, area) assignment."""
    externo = comun.numero_externo(numero_externo)
    fecha = comun.fecha(fecha_expedicion, "fecha_expedicion") or timezone.localdate()
    with transaction.atomic():
        asignacion = _bloquear_asignacion(cdp.proyecto_id, cdp.area_id)
        actual = Cdp.objects.select_for_update().get(pk=cdp.pk)
        comun.transicion(estados.TRANSICIONES_CDP, "expedir", actual.estado, "el CDP")
        _disponible_celda(
            actual.proyecto_id, actual.area_id, actual.valor_actual, asignacion=asignacion
        )
        actual.estado = EstadoCdp.EXPEDIDO
        actual.estado_expedicion = None
        actual.numero_externo = externo or actual.numero_externo
        actual.fecha_expedicion = fecha
        actual.expedido_por = usuario
        actual.comprometido = CERO
        _cuadrar_cdp(actual)
        _guardar_con_externo(
            actual,
            [
                "estado",
                "estado_expedicion",
                "numero_externo",
                "fecha_expedicion",
                "expedido_por",
                *_CAMPOS_SALDO_CDP,
            ],
        )
        if actual.linea_paa_id:
            # The first issued CDP puts its approved PAA line into execution.
            LineaPaa.objects.filter(
                pk=actual.linea_paa_id, estado=estados.EstadoLinea.APROBADA
            ).update(estado=estados.EstadoLinea.EN_EJECUCION, actualizado_en=timezone.now())
    return actual


def _validar_mov_cdp(cdp: Cdp, tipo: str, valor: Decimal, asignacion=None) -> None:
    if cdp.estado not in estados.CDP_CON_SALDO:
        raise ErrorPresupuesto(
            "Solo se registran movimientos sobre un CDP expedido.", code="transicion_invalida"
        )
    if tipo == TipoMovimientoCdp.ADICION:
        _disponible_celda(cdp.proyecto_id, cdp.area_id, valor, asignacion=asignacion)
    elif tipo == TipoMovimientoCdp.REDUCCION:
        nuevo = cdp.valor_actual - valor
        if nuevo < cdp.comprometido:
            raise ErrorPresupuesto(
                {"valor": [f"El CDP quedaría por debajo de lo comprometido ({cdp.comprometido})."]},
                code="saldo_insuficiente",
            )
        if nuevo <= 0:
            raise ErrorPresupuesto(
                {"valor": ["Para dejar el CDP en cero, anúlelo."]}, code="saldo_insuficiente"
            )
    elif cdp.rps.filter(estado__in=estados.RP_ACTIVOS).exists():
        raise ErrorPresupuesto(
            "El CDP tiene RP en trámite o expedidos: anúlelos o recháceles primero.",
            code="transicion_invalida",
        )


def _siguiente_movimiento(qs: models.QuerySet) -> int:
    return (qs.aggregate(ultimo=Max("numero"))["ultimo"] or 0) + 1


def _aplicar_cdp(cdp: Cdp, mov: MovimientoCdp) -> None:
    if mov.tipo == TipoMovimientoCdp.ADICION:
        cdp.valor_actual += mov.valor
    elif mov.tipo == TipoMovimientoCdp.REDUCCION:
        cdp.valor_actual -= mov.valor
    else:
        mov.valor = cdp.valor_actual
        cdp.valor_actual = CERO
        cdp.estado = EstadoCdp.ANULADO
        cdp.motivo_anulacion = mov.descripcion
    _cuadrar_cdp(cdp)
    cdp.save(update_fields=[*_CAMPOS_SALDO_CDP, "motivo_anulacion"])
    mov.estado = EstadoMovimiento.APLICADO
    mov.save(update_fields=["estado", "valor"])


def registrar_movimiento_cdp(
    *,
    cdp: Cdp,
    tipo: str,
    descripcion: str,
    valor=None,
    fecha: datetime.date | None = None,
    numero_radicado: str | None = None,
    aplicar: bool = True,
    usuario=None,
) -> MovimientoCdp:
    """An addition, reduction or annulment of an issued CDP; applied now unless `aplicar=False`.

    An annulment takes the CDP's whole current value (`valor` is ignored).
    """
    if tipo not in TipoMovimientoCdp.values:
        raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
    descripcion = comun.texto(descripcion, "descripcion", maximo=2000)
    anulacion = tipo == TipoMovimientoCdp.ANULACION
    importe = None if anulacion else comun.valor(valor)
    fecha = comun.fecha(fecha, "fecha") or timezone.localdate()
    radicado = comun.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    with transaction.atomic():
        asignacion = None
        if tipo == TipoMovimientoCdp.ADICION:
            asignacion = _bloquear_asignacion(cdp.proyecto_id, cdp.area_id)
        actual = Cdp.objects.select_for_update().get(pk=cdp.pk)
        if anulacion:
            importe = actual.valor_actual
        _validar_mov_cdp(actual, tipo, importe, asignacion)
        movimiento = MovimientoCdp.objects.create(
            cdp=actual,
            numero=_siguiente_movimiento(actual.movimientos.all()),
            tipo=tipo,
            valor=importe,
            fecha=fecha,
            descripcion=descripcion,
            numero_radicado=radicado,
            registrado_por=usuario,
        )
        if aplicar:
            _aplicar_cdp(actual, movimiento)
    return movimiento


def anular_cdp(*, cdp: Cdp, motivo: str, usuario=None) -> Cdp:
    """Annul an issued CDP without live RPs (an applied annulment movement)."""
    registrar_movimiento_cdp(
        cdp=cdp, tipo=TipoMovimientoCdp.ANULACION, descripcion=motivo, usuario=usuario
    )
    return Cdp.objects.get(pk=cdp.pk)


# --- RP -------------------------------------------------------------------------------------


def solicitar_rp(
    *,
    cdp: Cdp,
    beneficiario: str,
    objeto: str,
    valor,
    documento_beneficiario: str = "",
    fecha_inicio: datetime.date | None = None,
    fecha_fin: datetime.date | None = None,
    numero_radicado: str | None = None,
    usuario=None,
) -> Rp:
    """Register an RP request against an issued CDP (checked again, locked, at expedition)."""
    beneficiario = comun.texto(beneficiario, "beneficiario", maximo=250)
    documento = comun.texto(documento_beneficiario, "documento_beneficiario", maximo=30, vacio=True)
    objeto = comun.texto(objeto, "objeto", maximo=2000)
    valor = comun.valor(valor)
    inicio = comun.fecha(fecha_inicio, "fecha_inicio")
    fin = comun.fecha(fecha_fin, "fecha_fin")
    if inicio and fin and fin < inicio:
        raise ErrorPresupuesto({"fecha_fin": ["No puede ser anterior a la fecha de inicio."]})
    radicado = comun.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    with transaction.atomic():
        consecutivo = reservar_consecutivos(vigencia=cdp.vigencia, campo="consecutivo_rp")
        rp = Rp(
            vigencia_id=cdp.vigencia_id,
            numero=f"RP-{cdp.vigencia.anio}-{consecutivo:05d}",
            numero_radicado=radicado,
            cdp=cdp,
            beneficiario=beneficiario,
            documento_beneficiario=documento,
            objeto=objeto,
            valor_inicial=valor,
            valor_actual=valor,
            fecha_inicio=inicio,
            fecha_fin=fin,
            solicitado_por=usuario,
        )
        _verificar_disponible_solicitud(rp)
        rp.save()
    return rp


def expedir_rp(
    *,
    rp: Rp,
    numero_externo: str | None = None,
    fecha_expedicion: datetime.date | None = None,
    usuario=None,
) -> Rp:
    """Issue a requested RP, committing its value against the CDP's balance (locked)."""
    externo = comun.numero_externo(numero_externo)
    fecha = comun.fecha(fecha_expedicion, "fecha_expedicion") or timezone.localdate()
    with transaction.atomic():
        cdp = Cdp.objects.select_for_update().get(pk=rp.cdp_id)
        actual = Rp.objects.select_for_update().get(pk=rp.pk)
        comun.transicion(estados.TRANSICIONES_RP, "expedir", actual.estado, "el RP")
        if cdp.estado not in estados.CDP_CON_SALDO or actual.valor_actual > cdp.saldo:
            raise ErrorPresupuesto(
                {"valor": [f"Supera el saldo del CDP {cdp.numero} ({_saldo_de(cdp)})."]},
                code="saldo_insuficiente",
            )
        cdp.comprometido += actual.valor_actual
        _cuadrar_cdp(cdp)
        cdp.save(update_fields=_CAMPOS_SALDO_CDP)
        actual.estado = EstadoRp.EXPEDIDO
        actual.estado_expedicion = None
        actual.numero_externo = externo or actual.numero_externo
        actual.fecha_expedicion = fecha
        actual.expedido_por = usuario
        _cuadrar_rp(actual)
        _guardar_con_externo(
            actual,
            [
                "estado",
                "estado_expedicion",
                "numero_externo",
                "fecha_expedicion",
                "expedido_por",
                "actualizado_en",
            ],
        )
    return actual


def _validar_mov_rp(rp: Rp, cdp: Cdp, tipo: str, valor: Decimal) -> None:
    if rp.estado not in estados.RP_VIGENTE:
        raise ErrorPresupuesto(
            "Solo se registran movimientos sobre un RP expedido.", code="transicion_invalida"
        )
    if tipo == TipoMovimientoRp.ADICION:
        if cdp.estado not in estados.CDP_CON_SALDO or valor > cdp.saldo:
            raise ErrorPresupuesto(
                {"valor": [f"Supera el saldo del CDP {cdp.numero} ({_saldo_de(cdp)})."]},
                code="saldo_insuficiente",
            )
    elif tipo == TipoMovimientoRp.REDUCCION:
        nuevo = rp.valor_actual - valor
        if nuevo < rp.obligado:
            raise ErrorPresupuesto(
                {"valor": [f"El RP quedaría por debajo de lo obligado ({rp.obligado})."]},
                code="saldo_insuficiente",
            )
        if nuevo <= 0:
            raise ErrorPresupuesto(
                {"valor": ["Para dejar el RP en cero, anúlelo."]}, code="saldo_insuficiente"
            )
    elif tipo == TipoMovimientoRp.OBLIGACION:
        if rp.obligado + valor > rp.valor_actual:
            raise ErrorPresupuesto(
                {"valor": [f"Supera el saldo por obligar del RP ({rp.por_obligar})."]},
                code="saldo_insuficiente",
            )
    elif rp.obligado > 0:
        raise ErrorPresupuesto(
            "No se puede anular un RP con obligaciones; redúzcalo hasta lo obligado.",
            code="transicion_invalida",
        )


def _aplicar_rp(rp: Rp, cdp: Cdp, mov: MovimientoRp) -> None:
    if mov.tipo == TipoMovimientoRp.ADICION:
        rp.valor_actual += mov.valor
        cdp.comprometido += mov.valor
    elif mov.tipo == TipoMovimientoRp.REDUCCION:
        rp.valor_actual -= mov.valor
        cdp.comprometido -= mov.valor
    elif mov.tipo == TipoMovimientoRp.OBLIGACION:
        rp.obligado += mov.valor
    else:
        mov.valor = rp.valor_actual
        cdp.comprometido -= rp.valor_actual
        rp.valor_actual = CERO
        rp.estado = EstadoRp.ANULADO
        rp.motivo_anulacion = mov.descripcion
    _cuadrar_rp(rp)
    rp.save(
        update_fields=["valor_actual", "obligado", "estado", "motivo_anulacion", "actualizado_en"]
    )
    if mov.tipo != TipoMovimientoRp.OBLIGACION:
        _cuadrar_cdp(cdp)
        cdp.save(update_fields=_CAMPOS_SALDO_CDP)
    mov.estado = EstadoMovimiento.APLICADO
    mov.save(update_fields=["estado", "valor"])


def registrar_movimiento_rp(
    *,
    rp: Rp,
    tipo: str,
    descripcion: str,
    valor=None,
    fecha: datetime.date | None = None,
    numero_radicado: str | None = None,
    aplicar: bool = True,
    usuario=None,
) -> MovimientoRp:
    """An addition, reduction, obligation or annulment of an issued RP.

    An annulment takes the RP's whole current value back to its CDP (`valor` is ignored).
    """
    if tipo not in TipoMovimientoRp.values:
        raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
    descripcion = comun.texto(descripcion, "descripcion", maximo=2000)
    anulacion = tipo == TipoMovimientoRp.ANULACION
    importe = None if anulacion else comun.valor(valor)
    fecha = comun.fecha(fecha, "fecha") or timezone.localdate()
    radicado = comun.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    with transaction.atomic():
        cdp = Cdp.objects.select_for_update().get(pk=rp.cdp_id)
        actual = Rp.objects.select_for_update().get(pk=rp.pk)
        if anulacion:
            importe = actual.valor_actual
        _validar_mov_rp(actual, cdp, tipo, importe)
        movimiento = MovimientoRp.objects.create(
            rp=actual,
            numero=_siguiente_movimiento(actual.movimientos.all()),
            tipo=tipo,
            valor=importe,
            fecha=fecha,
            descripcion=descripcion,
            numero_radicado=radicado,
            registrado_por=usuario,
        )
        if aplicar:
            _aplicar_rp(actual, cdp, movimiento)
    return movimiento


def anular_rp(*, rp: Rp, motivo: str, usuario=None) -> Rp:
    """Annul an issued RP without obligations; its value returns to the CDP's balance."""
    registrar_movimiento_rp(
        rp=rp, tipo=TipoMovimientoRp.ANULACION, descripcion=motivo, usuario=usuario
    )
    return Rp.objects.get(pk=rp.pk)


# --- requested movements --------------------------------------------------------------------


def validar_movimiento(*, documento: Documento, tipo: str, valor=None) -> Decimal:
    """Check, without writing or locking, whether a movement could be registered now.

    For forms: the binding check runs again under lock when the movement is registered.
    """
    if isinstance(documento, Cdp):
        if tipo not in TipoMovimientoCdp.values:
            raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
        anulacion = tipo == TipoMovimientoCdp.ANULACION
        importe = documento.valor_actual if anulacion else comun.valor(valor)
        _validar_mov_cdp(documento, tipo, importe)
        return importe
    _flujo(documento)
    if tipo not in TipoMovimientoRp.values:
        raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
    importe = documento.valor_actual if tipo == TipoMovimientoRp.ANULACION else comun.valor(valor)
    _validar_mov_rp(documento, documento.cdp, tipo, importe)
    return importe


def aplicar_movimiento(*, movimiento: Movimiento) -> Movimiento:
    """Apply a requested movement, checking again against the current balances."""
    with transaction.atomic():
        if isinstance(movimiento, MovimientoCdp):
            cdp = Cdp.objects.only("proyecto_id", "area_id").get(pk=movimiento.cdp_id)
            asignacion = None
            if movimiento.tipo == TipoMovimientoCdp.ADICION:
                asignacion = _bloquear_asignacion(cdp.proyecto_id, cdp.area_id)
            cdp = Cdp.objects.select_for_update().get(pk=movimiento.cdp_id)
            actual = MovimientoCdp.objects.select_for_update().get(pk=movimiento.pk)
            _pendiente(actual)
            importe = cdp.valor_actual if actual.tipo == "anulacion" else actual.valor
            _validar_mov_cdp(cdp, actual.tipo, importe, asignacion)
            _aplicar_cdp(cdp, actual)
        else:
            rp_id = movimiento.rp_id
            cdp_id = Rp.objects.values_list("cdp_id", flat=True).get(pk=rp_id)
            cdp = Cdp.objects.select_for_update().get(pk=cdp_id)
            rp = Rp.objects.select_for_update().get(pk=rp_id)
            actual = MovimientoRp.objects.select_for_update().get(pk=movimiento.pk)
            _pendiente(actual)
            importe = rp.valor_actual if actual.tipo == "anulacion" else actual.valor
            _validar_mov_rp(rp, cdp, actual.tipo, importe)
            _aplicar_rp(rp, cdp, actual)
    return actual


def rechazar_movimiento(*, movimiento: Movimiento, motivo: str) -> Movimiento:
    """Reject a requested movement (balances untouched)."""
    razon = comun.texto(motivo, "motivo", maximo=2000)
    with transaction.atomic():
        actual = type(movimiento).objects.select_for_update().get(pk=movimiento.pk)
        _pendiente(actual)
        actual.estado = EstadoMovimiento.RECHAZADO
        actual.motivo_rechazo = razon
        actual.save(update_fields=["estado", "motivo_rechazo"])
    return actual


def _pendiente(movimiento: Movimiento) -> None:
    if movimiento.estado != EstadoMovimiento.SOLICITADO:
        raise ErrorPresupuesto(
            "El movimiento ya fue aplicado o rechazado.", code="transicion_invalida"
        )


# --- consistency ----------------------------------------------------------------------------


def _sumas(qs: models.QuerySet, *claves: str) -> dict:
    filas = qs.filter(estado=EstadoMovimiento.APLICADO).values(*claves).annotate(t=Sum("valor"))
    return {tuple(f[c] for c in claves): f["t"] for f in filas}


def recalcular_saldos(cdp: Cdp, *, corregir: bool = False) -> dict[str, tuple[Decimal, Decimal]]:
    """Recompute a CDP's and its RPs' balances from movements; returns the differences.

    Each difference is `campo: (stored, expected)`; empty means consistent. With `corregir`
    the stored values are overwritten (under lock) with the expected ones.
    """
    with transaction.atomic():
        base = Cdp.objects.select_for_update() if corregir else Cdp.objects
        actual = base.get(pk=cdp.pk)
        rps_qs = actual.rps.select_for_update() if corregir else actual.rps.all()
        rps = list(rps_qs.order_by("pk"))
        mov_cdp = _sumas(MovimientoCdp.objects.filter(cdp=actual), "tipo")
        mov_rp = _sumas(MovimientoRp.objects.filter(rp__cdp=actual), "rp_id", "tipo")

        def suma(sumas: dict, *clave) -> Decimal:
            return sumas.get(clave, CERO)

        diferencias: dict[str, tuple[Decimal, Decimal]] = {}
        comprometido = CERO
        for rp in rps:
            esperado = {
                "valor_actual": rp.valor_inicial
                + suma(mov_rp, rp.pk, "adicion")
                - suma(mov_rp, rp.pk, "reduccion")
                - suma(mov_rp, rp.pk, "anulacion"),
                "obligado": suma(mov_rp, rp.pk, "obligacion"),
            }
            if rp.estado in estados.RP_COMPROMETEN:
                comprometido += esperado["valor_actual"]
            cambios = _comparar(rp, esperado, f"{rp.numero}.", diferencias)
            if corregir and cambios:
                _cuadrar_rp(rp)
                rp.save(update_fields=[*cambios, "estado", "actualizado_en"])
        valor_actual = (
            actual.valor_inicial
            + suma(mov_cdp, "adicion")
            - suma(mov_cdp, "reduccion")
            - suma(mov_cdp, "anulacion")
        )
        esperado_cdp = {
            "valor_actual": valor_actual,
            "comprometido": comprometido,
            "saldo": valor_actual - comprometido,
        }
        cambios = _comparar(actual, esperado_cdp, "cdp.", diferencias)
        if corregir and cambios:
            _cuadrar_cdp(actual)
            actual.save(update_fields=_CAMPOS_SALDO_CDP)
    return diferencias


def _comparar(objeto, esperado: dict, prefijo: str, diferencias: dict) -> list[str]:
    cambios = []
    for campo, valor_esperado in esperado.items():
        guardado = getattr(objeto, campo)
        if guardado != valor_esperado:
            diferencias[prefijo + campo] = (guardado, valor_esperado)
            setattr(objeto, campo, valor_esperado)
            cambios.append(campo)
    return cambios
