"""Checking a movement before registering it: the same rules, nothing written, nothing locked."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.presupuesto import services
from apps.presupuesto.models import Cdp, MovimientoCdp, MovimientoRp, Rp
from apps.presupuesto.services import ErrorPresupuesto
from tests.presupuesto.factories import cdp_expedido, cdp_solicitado, celda, rp_expedido

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def docs():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "400")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="100", descripcion="Pago")
    return Cdp.objects.get(pk=cdp.pk), Rp.objects.get(pk=rp.pk)


def _error(**kwargs) -> ErrorPresupuesto:
    with pytest.raises(ErrorPresupuesto) as error:
        services.validar_movimiento(**kwargs)
    return error.value


def test_an_allowed_movement_returns_its_amount_and_writes_nothing(docs):
    cdp, rp = docs
    assert services.validar_movimiento(documento=cdp, tipo="adicion", valor="4000") == D("4000.00")
    assert services.validar_movimiento(documento=rp, tipo="obligacion", valor="300") == D("300.00")
    assert MovimientoCdp.objects.count() == 0
    assert MovimientoRp.objects.count() == 1
    assert Cdp.objects.get(pk=cdp.pk).valor_actual == D("1000.00")


def test_an_annulment_takes_the_whole_current_value(docs):
    cdp, rp = docs
    services.registrar_movimiento_rp(rp=rp, tipo="reduccion", valor="300", descripcion="-")
    rp = Rp.objects.get(pk=rp.pk)
    with pytest.raises(ErrorPresupuesto) as error:
        services.validar_movimiento(documento=rp, tipo="anulacion")
    assert "obligaciones" in error.value.texto
    libre = rp_expedido(cdp, "50")
    assert services.validar_movimiento(documento=libre, tipo="anulacion", valor="1") == D("50.00")


@pytest.mark.parametrize(
    ("clave", "tipo", "valor", "codigo", "mensaje"),
    [
        ("cdp", "adicion", "4000.01", "saldo_insuficiente", "Supera lo disponible del área"),
        ("cdp", "reduccion", "601", "saldo_insuficiente", "por debajo de lo comprometido (400.00)"),
        ("cdp", "anulacion", None, "transicion_invalida", "tiene RP en trámite o expedidos"),
        ("rp", "adicion", "600.01", "saldo_insuficiente", "Supera el saldo del CDP"),
        ("rp", "reduccion", "301", "saldo_insuficiente", "por debajo de lo obligado (100.00)"),
        ("rp", "obligacion", "300.01", "saldo_insuficiente", "saldo por obligar del RP (300.00)"),
        ("rp", "obligacion", "abc", "dato_invalido", "Debe ser un número"),
        ("cdp", "obligacion", "1", "dato_invalido", "Tipo de movimiento desconocido"),
    ],
)
def test_each_rule_refuses_with_its_code_and_reason(docs, clave, tipo, valor, codigo, mensaje):
    documento = dict(zip(["cdp", "rp"], docs, strict=True))[clave]
    error = _error(documento=documento, tipo=tipo, valor=valor)
    assert error.codigo == codigo
    assert mensaje in error.texto


def test_a_reduction_to_zero_asks_for_an_annulment():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    error = _error(documento=cdp, tipo="reduccion", valor="1000")
    assert (error.codigo, error.texto) == (
        "saldo_insuficiente",
        "Para dejar el CDP en cero, anúlelo.",
    )


def test_a_document_not_yet_issued_takes_no_movement():
    proyecto, area = celda("5000")
    error = _error(documento=cdp_solicitado(proyecto, area), tipo="adicion", valor="1")
    assert (error.codigo, error.texto) == (
        "transicion_invalida",
        "Solo se registran movimientos sobre un CDP expedido.",
    )


def test_anything_but_a_cdp_or_an_rp_is_a_programming_error():
    with pytest.raises(TypeError):
        services.validar_movimiento(documento=object(), tipo="adicion", valor="1")
