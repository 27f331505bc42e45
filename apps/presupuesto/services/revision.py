"""The financial area's review of requested documents and movements, CDP and RP alike."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from apps.presupuesto.estados import EstadoExpedicion, EstadoMovimiento
from apps.presupuesto.models import Cdp, MovimientoCdp, MovimientoRp, Rp
from apps.presupuesto.models.documentos import Movimiento
from apps.presupuesto.services import validacion
from apps.presupuesto.services.cdp import CLASE_CDP
from apps.presupuesto.services.documentos import (
    ADICION,
    ANULACION,
    ClaseDocumento,
    Documento,
)
from apps.presupuesto.services.errores import ErrorPresupuesto
from apps.presupuesto.services.rp import CLASE_RP
from apps.presupuesto.services.transiciones import transicion

_CLASES: dict[type, ClaseDocumento] = {
    Cdp: CLASE_CDP,
    MovimientoCdp: CLASE_CDP,
    Rp: CLASE_RP,
    MovimientoRp: CLASE_RP,
}


def _clase(objeto: Documento | Movimiento) -> ClaseDocumento:
    try:
        return _CLASES[type(objeto)]
    except KeyError:
        raise TypeError(f"No es un CDP ni un RP: {type(objeto).__name__}") from None


# --- documents --------------------------------------------------------------------------------


def _mover(documento: Documento, accion: str, **campos) -> Documento:
    clase = _clase(documento)
    with transaction.atomic():
        actual = clase.modelo.objects.select_for_update().get(pk=documento.pk)
        actual.estado = transicion(clase.transiciones, accion, actual.estado, clase.etiqueta)
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
    clase = _clase(documento)
    with transaction.atomic():
        actual = clase.modelo.objects.select_for_update().get(pk=documento.pk)
        if actual.estado != "en_revision":
            raise ErrorPresupuesto(
                f"Solo se marca la expedición de {clase.etiqueta} en revisión.",
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
        motivo_devolucion=validacion.texto(motivo, "motivo", maximo=2000),
        estado_expedicion=None,
    )


def rechazar(*, documento: Documento, motivo: str) -> Documento:
    """Reject a request for good, with the reason."""
    return _mover(
        documento,
        "rechazar",
        motivo_rechazo=validacion.texto(motivo, "motivo", maximo=2000),
        estado_expedicion=None,
    )


def reenviar(*, documento: Documento, objeto: str | None = None, valor=None) -> Documento:
    """The requesting area sends a returned request again, optionally corrected."""
    clase = _clase(documento)
    campos: dict = {}
    if objeto is not None:
        campos["objeto"] = validacion.texto(objeto, "objeto", maximo=2000)
    if valor is not None:
        campos.update(dict.fromkeys(clase.campos_del_valor, validacion.valor(valor)))
    with transaction.atomic():
        actual = _mover(documento, "reenviar", **campos)
        if valor is not None:
            clase.verificar_solicitud(actual)
    return actual


# --- requested movements ------------------------------------------------------------------


def validar_movimiento(*, documento: Documento, tipo: str, valor=None) -> Decimal:
    """Check, without writing or locking, whether a movement could be registered now.

    For forms: the binding check runs again under lock when the movement is registered.
    """
    clase = _clase(documento)
    if tipo not in clase.tipos.values:
        raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
    importe = documento.valor_actual if tipo == ANULACION else validacion.valor(valor)
    clase.validar(clase.leer(documento), tipo, importe)
    return importe


def aplicar_movimiento(*, movimiento: Movimiento) -> Movimiento:
    """Apply a requested movement, checking again against the current balances."""
    clase = _clase(movimiento)
    with transaction.atomic():
        filas = clase.bloquear(movimiento.documento, crece=movimiento.tipo == ADICION)
        actual = clase.movimiento.objects.select_for_update().get(pk=movimiento.pk)
        _pendiente(actual)
        importe = filas.documento.valor_actual if actual.tipo == ANULACION else actual.valor
        clase.validar(filas, actual.tipo, importe)
        clase.aplicar(filas, actual)
    return actual


def rechazar_movimiento(*, movimiento: Movimiento, motivo: str) -> Movimiento:
    """Reject a requested movement (balances untouched)."""
    razon = validacion.texto(motivo, "motivo", maximo=2000)
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
