"""Writes on CDPs: request, expedition, movements; a CDP reserves part of a (project, area) cell."""

from __future__ import annotations

from decimal import Decimal
from typing import Unpack

from django.db import transaction
from django.utils import timezone

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoCdp, TipoMovimientoCdp
from apps.presupuesto.models import Asignacion, Cdp, LineaPaa, MovimientoCdp, Proyecto
from apps.presupuesto.models.base import CERO
from apps.presupuesto.services import validacion
from apps.presupuesto.services.celdas import certificado_celda
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

CAMPOS_SALDO_CDP = ("valor_actual", "comprometido", "saldo", "estado", "actualizado_en")


def _sin_asignacion() -> ErrorPresupuesto:
    return ErrorPresupuesto("El área no tiene asignación en el proyecto.", code="sin_asignacion")


def disponible_celda(proyecto_id: int, area_id: int, valor: Decimal, *, asignacion=None) -> None:
    """Raise unless `valor` more fits in the (project, area) assignment."""
    if asignacion is None:
        asignacion = Asignacion.objects.filter(proyecto_id=proyecto_id, area_id=area_id).first()
    if asignacion is None:
        raise _sin_asignacion()
    disponible = asignacion.valor - certificado_celda(proyecto_id, area_id)
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
        raise _sin_asignacion()
    return asignacion


def verificar_saldo_cdp(cdp: Cdp, valor: Decimal) -> None:
    """Raise unless `valor` fits in the CDP's balance (an RP, or an RP's addition)."""
    if cdp.estado not in estados.CDP_CON_SALDO or valor > cdp.saldo:
        saldo = cdp.saldo if cdp.estado in estados.CDP_CON_SALDO else CERO
        raise ErrorPresupuesto(
            {"valor": [f"Supera el saldo del CDP {cdp.numero} ({saldo})."]},
            code="saldo_insuficiente",
        )


class ClaseCdp(ClaseDocumento):
    modelo = Cdp
    movimiento = MovimientoCdp
    tipos = TipoMovimientoCdp
    transiciones = estados.TRANSICIONES_CDP
    sigla = "CDP"
    con_movimientos = estados.CDP_CON_SALDO
    piso = "comprometido"
    campos_saldo = CAMPOS_SALDO_CDP
    campos_del_valor = ("valor_inicial", "valor_actual", "saldo")

    def bloquear(self, documento: Cdp, *, crece: bool) -> Filas:
        asignacion = None
        if crece:
            asignacion = _bloquear_asignacion(documento.proyecto_id, documento.area_id)
        actual = Cdp.objects.select_for_update().get(pk=documento.pk)
        return Filas(actual, actual, asignacion)

    def leer(self, documento: Cdp) -> Filas:
        return Filas(documento, documento)

    def verificar_solicitud(self, documento: Cdp) -> None:
        disponible_celda(documento.proyecto_id, documento.area_id, documento.valor_actual)

    def reservar(self, filas: Filas) -> None:
        cdp = filas.cdp
        disponible_celda(
            cdp.proyecto_id, cdp.area_id, cdp.valor_actual, asignacion=filas.asignacion
        )
        cdp.comprometido = CERO

    def comprobar(self, filas: Filas, tipo: str, valor: Decimal) -> None:
        cdp = filas.cdp
        if tipo == ADICION:
            disponible_celda(cdp.proyecto_id, cdp.area_id, valor, asignacion=filas.asignacion)
        elif cdp.rps.filter(estado__in=estados.RP_ACTIVOS).exists():
            raise ErrorPresupuesto(
                "El CDP tiene RP en trámite o expedidos: anúlelos o recháceles primero.",
                code="transicion_invalida",
            )

    def trasladar(self, filas: Filas, movimiento: MovimientoCdp, cambio: Decimal) -> None:
        """A CDP's movement changes nothing but the CDP."""

    def cuadrar(self, documento: Cdp) -> None:
        """saldo = valor_actual - comprometido; an issued CDP is agotado exactly when saldo is 0."""
        documento.saldo = documento.valor_actual - documento.comprometido
        if documento.estado in estados.CDP_CON_SALDO:
            documento.estado = EstadoCdp.AGOTADO if documento.saldo == 0 else EstadoCdp.EXPEDIDO

    def expedido(self, documento: Cdp) -> None:
        if documento.linea_paa_id:
            # The first issued CDP puts its approved PAA line into execution.
            # (An update() sends no signal; the cached verifications of the line's signatures are
            # replaced by the save of the CDP, a signable document, in this same transaction.)
            LineaPaa.objects.filter(
                pk=documento.linea_paa_id, estado=estados.EstadoLinea.APROBADA
            ).update(estado=estados.EstadoLinea.EN_EJECUCION, actualizado_en=timezone.now())


CLASE_CDP = ClaseCdp()


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
    objeto = validacion.texto(objeto, "objeto", maximo=2000)
    valor = validacion.valor(valor)
    radicado = validacion.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    dependencia = validacion.texto(dependencia, "dependencia", maximo=150, vacio=True)
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
        disponible_celda(proyecto.pk, area.pk, valor)
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


def expedir_cdp(*, cdp: Cdp, **datos: Unpack[DatosExpedicion]) -> Cdp:
    """Issue a requested CDP: its value must still fit in its (project, area) assignment."""
    return expedir(CLASE_CDP, documento=cdp, **datos)


def registrar_movimiento_cdp(*, cdp: Cdp, **datos: Unpack[DatosMovimiento]) -> MovimientoCdp:
    """An addition, reduction or annulment of an issued CDP; applied now unless `aplicar=False`.

    An annulment takes the CDP's whole current value (`valor` is ignored).
    """
    return registrar_movimiento(CLASE_CDP, documento=cdp, **datos)


def anular_cdp(*, cdp: Cdp, motivo: str, usuario=None) -> Cdp:
    """Annul an issued CDP without live RPs (an applied annulment movement)."""
    return anular(CLASE_CDP, documento=cdp, motivo=motivo, usuario=usuario)
