"""Writes on RPs: request, expedition, movements; an RP commits part of its CDP's balance."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Unpack

from django.db import transaction

from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoRp, TipoMovimientoRp
from apps.presupuesto.models import Cdp, MovimientoRp, Rp
from apps.presupuesto.services import validacion
from apps.presupuesto.services.cdp import CAMPOS_SALDO_CDP, CLASE_CDP, verificar_saldo_cdp
from apps.presupuesto.services.documentos import (
    ADICION,
    ClaseDocumento,
    DatosExpedicion,
    DatosMovimiento,
    Filas,
    anular,
    expedir,
    registrar_movimiento,
)
from apps.presupuesto.services.errores import ErrorPresupuesto
from apps.presupuesto.services.planeacion import reservar_consecutivos


def _comprometer_en_cdp(cdp: Cdp, cambio: Decimal) -> None:
    cdp.comprometido += cambio
    CLASE_CDP.cuadrar(cdp)
    cdp.save(update_fields=CAMPOS_SALDO_CDP)


class ClaseRp(ClaseDocumento):
    modelo = Rp
    movimiento = MovimientoRp
    tipos = TipoMovimientoRp
    transiciones = estados.TRANSICIONES_RP
    sigla = "RP"
    con_movimientos = estados.RP_VIGENTE
    piso = "obligado"
    campos_saldo = ("valor_actual", "obligado", "estado", "actualizado_en")
    campos_del_valor = ("valor_inicial", "valor_actual")

    def bloquear(self, documento: Rp, *, crece: bool) -> Filas:
        # The CDP is locked first, whatever the operation: every RP change may move its balance.
        cdp = Cdp.objects.select_for_update().get(pk=documento.cdp_id)
        return Filas(Rp.objects.select_for_update().get(pk=documento.pk), cdp)

    def leer(self, documento: Rp) -> Filas:
        return Filas(documento, documento.cdp)

    def verificar_solicitud(self, documento: Rp) -> None:
        verificar_saldo_cdp(Cdp.objects.get(pk=documento.cdp_id), documento.valor_actual)

    def reservar(self, filas: Filas) -> None:
        verificar_saldo_cdp(filas.cdp, filas.documento.valor_actual)
        _comprometer_en_cdp(filas.cdp, filas.documento.valor_actual)

    def comprobar(self, filas: Filas, tipo: str, valor: Decimal) -> None:
        rp = filas.documento
        if tipo == ADICION:
            verificar_saldo_cdp(filas.cdp, valor)
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

    def trasladar(self, filas: Filas, movimiento: MovimientoRp, cambio: Decimal) -> None:
        if movimiento.tipo == TipoMovimientoRp.OBLIGACION:
            filas.documento.obligado += movimiento.valor
        else:
            _comprometer_en_cdp(filas.cdp, cambio)

    def cuadrar(self, documento: Rp) -> None:
        """An issued RP is ejecutado exactly when all its value is obligated."""
        if documento.estado in estados.RP_VIGENTE:
            todo_obligado = documento.obligado == documento.valor_actual
            documento.estado = EstadoRp.EJECUTADO if todo_obligado else EstadoRp.EXPEDIDO

    def expedido(self, documento: Rp) -> None:
        """An RP's expedition changes nothing else (its CDP was saved when reserving)."""


CLASE_RP = ClaseRp()


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
    beneficiario = validacion.texto(beneficiario, "beneficiario", maximo=250)
    documento = validacion.texto(
        documento_beneficiario, "documento_beneficiario", maximo=30, vacio=True
    )
    objeto = validacion.texto(objeto, "objeto", maximo=2000)
    valor = validacion.valor(valor)
    inicio = validacion.fecha(fecha_inicio, "fecha_inicio")
    fin = validacion.fecha(fecha_fin, "fecha_fin")
    if inicio and fin and fin < inicio:
        raise ErrorPresupuesto({"fecha_fin": ["No puede ser anterior a la fecha de inicio."]})
    radicado = validacion.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
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
        CLASE_RP.verificar_solicitud(rp)
        rp.save()
    return rp


def expedir_rp(*, rp: Rp, **datos: Unpack[DatosExpedicion]) -> Rp:
    """Issue a requested RP, committing its value against the CDP's balance (locked)."""
    return expedir(CLASE_RP, documento=rp, **datos)


def registrar_movimiento_rp(*, rp: Rp, **datos: Unpack[DatosMovimiento]) -> MovimientoRp:
    """An addition, reduction, obligation or annulment of an issued RP.

    An annulment takes the RP's whole current value back to its CDP (`valor` is ignored).
    """
    return registrar_movimiento(CLASE_RP, documento=rp, **datos)


def anular_rp(*, rp: Rp, motivo: str, usuario=None) -> Rp:
    """Annul an issued RP without obligations; its value returns to the CDP's balance."""
    return anular(CLASE_RP, documento=rp, motivo=motivo, usuario=usuario)
