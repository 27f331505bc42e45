"""Balances of CDP and RP as services move them, and the consistency check."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.presupuesto import services
from apps.presupuesto.models import Cdp, MovimientoCdp, MovimientoRp, Rp
from apps.presupuesto.services import ErrorPresupuesto
from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido, rp_solicitado

pytestmark = pytest.mark.django_db

D = Decimal


def recargar(obj):
    return type(obj).objects.get(pk=obj.pk)


def test_expedited_cdp_starts_with_full_saldo():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1200.50")
    cdp = recargar(cdp)
    assert cdp.estado == "expedido"
    assert (cdp.valor_inicial, cdp.valor_actual, cdp.comprometido, cdp.saldo) == (
        D("1200.50"),
        D("1200.50"),
        D("0.00"),
        D("1200.50"),
    )
    assert cdp.numero == "CDP-2026-00001"
    assert cdp.fecha_expedicion is not None


def test_rps_commit_the_cdp_and_the_last_peso_makes_it_agotado():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp_expedido(cdp, "400")
    assert recargar(cdp).saldo == D("600.00")
    rp_expedido(cdp, "600")
    cdp = recargar(cdp)
    assert (cdp.comprometido, cdp.saldo, cdp.estado) == (D("1000.00"), D("0.00"), "agotado")
    assert cdp.estado_visible == "Agotado"


def test_rp_larger_than_the_cdp_saldo_is_rejected_and_nothing_changes():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp_expedido(cdp, "700")
    pendiente = Rp.objects.create(
        vigencia=cdp.vigencia,
        numero="RP-2026-09999",
        cdp=cdp,
        beneficiario="X",
        objeto="Y",
        valor_inicial=D("300.01"),
        valor_actual=D("300.01"),
    )
    with pytest.raises(ErrorPresupuesto) as error:
        services.expedir_rp(rp=pendiente)
    assert error.value.codigo == "saldo_insuficiente"
    assert recargar(pendiente).estado == "solicitado"
    assert recargar(cdp).comprometido == D("700.00")


def test_rp_request_larger_than_saldo_is_rejected_early():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "100")
    with pytest.raises(ErrorPresupuesto) as error:
        rp_solicitado(cdp, "100.01")
    assert error.value.codigo == "saldo_insuficiente"
    assert Rp.objects.count() == 0


def test_cdp_cannot_exceed_its_area_assignment_in_the_project():
    proyecto, area = celda("1000")
    cdp_expedido(proyecto, area, "800")
    with pytest.raises(ErrorPresupuesto) as error:
        cdp_expedido(proyecto, area, "200.01")
    assert error.value.codigo == "saldo_insuficiente"


def test_cdp_request_without_assignment_is_rejected():
    from tests.factories import AreaFactory

    proyecto, _ = celda("1000")
    with pytest.raises(ErrorPresupuesto) as error:
        services.solicitar_cdp(proyecto=proyecto, area=AreaFactory(), objeto="x", valor=10)
    assert error.value.codigo == "sin_asignacion"


def test_cdp_addition_and_reduction_move_valor_actual_and_saldo():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp_expedido(cdp, "300")
    services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="500", descripcion="Más")
    services.registrar_movimiento_cdp(cdp=cdp, tipo="reduccion", valor="200", descripcion="Menos")
    cdp = recargar(cdp)
    assert (cdp.valor_inicial, cdp.valor_actual, cdp.comprometido, cdp.saldo) == (
        D("1000.00"),
        D("1300.00"),
        D("300.00"),
        D("1000.00"),
    )
    assert list(cdp.movimientos.values_list("numero", "tipo", "estado")) == [
        (1, "adicion", "aplicado"),
        (2, "reduccion", "aplicado"),
    ]


def test_cdp_addition_beyond_the_assignment_is_rejected():
    proyecto, area = celda("1000")
    cdp = cdp_expedido(proyecto, area, "900")
    with pytest.raises(ErrorPresupuesto) as error:
        services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="100.01", descripcion="+")
    assert error.value.codigo == "saldo_insuficiente"
    assert MovimientoCdp.objects.count() == 0


def test_cdp_reduction_below_what_is_committed_is_rejected():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp_expedido(cdp, "700")
    with pytest.raises(ErrorPresupuesto) as error:
        services.registrar_movimiento_cdp(
            cdp=cdp, tipo="reduccion", valor="300.01", descripcion="-"
        )
    assert error.value.codigo == "saldo_insuficiente"
    services.registrar_movimiento_cdp(cdp=cdp, tipo="reduccion", valor="300", descripcion="-")
    cdp = recargar(cdp)
    assert (cdp.valor_actual, cdp.saldo, cdp.estado) == (D("700.00"), D("0.00"), "agotado")


def test_cdp_reduction_to_zero_must_be_an_annulment():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    with pytest.raises(ErrorPresupuesto):
        services.registrar_movimiento_cdp(cdp=cdp, tipo="reduccion", valor="1000", descripcion="-")


def test_annulling_a_cdp_frees_its_value_and_records_the_movement():
    proyecto, area = celda("1000")
    cdp = services.anular_cdp(cdp=cdp_expedido(proyecto, area, "1000"), motivo="Ya no se contrata")
    assert (cdp.estado, cdp.valor_actual, cdp.saldo) == ("anulado", D("0.00"), D("0.00"))
    assert cdp.motivo_anulacion == "Ya no se contrata"
    movimiento = cdp.movimientos.get()
    assert (movimiento.tipo, movimiento.valor, movimiento.estado) == (
        "anulacion",
        D("1000.00"),
        "aplicado",
    )
    # The assignment is free again.
    assert cdp_expedido(proyecto, area, "1000").estado == "expedido"


def test_a_cdp_with_live_rps_cannot_be_annulled():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp_solicitado(cdp, "10")
    with pytest.raises(ErrorPresupuesto) as error:
        services.anular_cdp(cdp=cdp, motivo="x")
    assert error.value.codigo == "transicion_invalida"
    assert recargar(cdp).estado == "expedido"


def test_rp_obligations_reach_ejecutado_and_cannot_exceed_the_rp():
    proyecto, area = celda("5000")
    rp = rp_expedido(cdp_expedido(proyecto, area, "1000"), "500")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="200", descripcion="Pago 1")
    with pytest.raises(ErrorPresupuesto) as error:
        services.registrar_movimiento_rp(
            rp=rp, tipo="obligacion", valor="300.01", descripcion="Pago 2"
        )
    assert error.value.codigo == "saldo_insuficiente"
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="300", descripcion="Pago 2")
    rp = recargar(rp)
    assert (rp.obligado, rp.valor_actual, rp.estado, rp.estado_visible) == (
        D("500.00"),
        D("500.00"),
        "ejecutado",
        "Ejecutado",
    )


def test_rp_addition_takes_from_the_cdp_and_reduction_gives_back():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "500")
    services.registrar_movimiento_rp(rp=rp, tipo="adicion", valor="500", descripcion="+")
    assert (recargar(cdp).saldo, recargar(cdp).estado) == (D("0.00"), "agotado")
    with pytest.raises(ErrorPresupuesto):
        services.registrar_movimiento_rp(rp=rp, tipo="adicion", valor="0.01", descripcion="+")
    services.registrar_movimiento_rp(rp=rp, tipo="reduccion", valor="250", descripcion="-")
    cdp, rp = recargar(cdp), recargar(rp)
    assert (rp.valor_actual, cdp.comprometido, cdp.saldo, cdp.estado) == (
        D("750.00"),
        D("750.00"),
        D("250.00"),
        "expedido",
    )


def test_rp_reduction_below_obligated_is_rejected():
    proyecto, area = celda("5000")
    rp = rp_expedido(cdp_expedido(proyecto, area, "1000"), "500")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="400", descripcion="Pago")
    with pytest.raises(ErrorPresupuesto):
        services.registrar_movimiento_rp(rp=rp, tipo="reduccion", valor="100.01", descripcion="-")
    services.registrar_movimiento_rp(rp=rp, tipo="reduccion", valor="100", descripcion="-")
    assert recargar(rp).estado == "ejecutado"


def test_annulling_an_rp_returns_its_value_to_the_cdp():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "1000")
    assert recargar(cdp).estado == "agotado"
    rp = services.anular_rp(rp=rp, motivo="Contrato desistido")
    cdp = recargar(cdp)
    assert (rp.estado, rp.valor_actual) == ("anulado", D("0.00"))
    assert (cdp.comprometido, cdp.saldo, cdp.estado) == (D("0.00"), D("1000.00"), "expedido")
    assert MovimientoRp.objects.get(rp=rp).valor == D("1000.00")


def test_an_rp_with_obligations_cannot_be_annulled():
    proyecto, area = celda("5000")
    rp = rp_expedido(cdp_expedido(proyecto, area, "1000"), "500")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="1", descripcion="Pago")
    with pytest.raises(ErrorPresupuesto) as error:
        services.anular_rp(rp=rp, motivo="x")
    assert error.value.codigo == "transicion_invalida"


def test_requested_movement_changes_nothing_until_applied():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    movimiento = services.registrar_movimiento_cdp(
        cdp=cdp, tipo="adicion", valor="100", descripcion="+", aplicar=False
    )
    assert recargar(cdp).valor_actual == D("1000.00")
    assert movimiento.estado == "solicitado"
    services.aplicar_movimiento(movimiento=movimiento)
    assert recargar(cdp).valor_actual == D("1100.00")
    assert recargar(movimiento).estado == "aplicado"
    with pytest.raises(ErrorPresupuesto) as error:
        services.aplicar_movimiento(movimiento=movimiento)
    assert error.value.codigo == "transicion_invalida"
    assert recargar(cdp).valor_actual == D("1100.00")


def test_requested_movement_is_checked_again_when_applied():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "500")
    obligacion = services.registrar_movimiento_rp(
        rp=rp, tipo="obligacion", valor="400", descripcion="Pago", aplicar=False
    )
    services.registrar_movimiento_rp(rp=rp, tipo="reduccion", valor="200", descripcion="-")
    with pytest.raises(ErrorPresupuesto) as error:
        services.aplicar_movimiento(movimiento=obligacion)
    assert error.value.codigo == "saldo_insuficiente"
    assert recargar(rp).obligado == D("0.00")


def test_rejected_movement_keeps_balances_and_its_reason():
    proyecto, area = celda("5000")
    rp = rp_expedido(cdp_expedido(proyecto, area, "1000"), "500")
    movimiento = services.registrar_movimiento_rp(
        rp=rp, tipo="adicion", valor="10", descripcion="+", aplicar=False
    )
    movimiento = services.rechazar_movimiento(movimiento=movimiento, motivo="Sin soporte")
    assert (movimiento.estado, movimiento.motivo_rechazo) == ("rechazado", "Sin soporte")
    assert recargar(rp).valor_actual == D("500.00")


@pytest.mark.parametrize("valor", ["0", "-5", "1.001", "abc", "NaN", "1e20"])
def test_bad_amounts_are_rejected_with_the_field_named(valor):
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    with pytest.raises(ErrorPresupuesto) as error:
        services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor=valor, descripcion="+")
    assert "valor" in error.value.message_dict
    assert MovimientoCdp.objects.count() == 0


def test_unknown_movement_type_is_rejected():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    with pytest.raises(ErrorPresupuesto) as error:
        services.registrar_movimiento_cdp(cdp=cdp, tipo="obligacion", valor="1", descripcion="x")
    assert "tipo" in error.value.message_dict


def test_recalcular_saldos_finds_nothing_after_services_and_repairs_tampering():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "400")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="100", descripcion="Pago")
    services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="50", descripcion="+")
    otro = rp_expedido(cdp, "50")
    services.anular_rp(rp=otro, motivo="x")
    assert services.recalcular_saldos(cdp) == {}

    Cdp.objects.filter(pk=cdp.pk).update(comprometido=D("10.00"), saldo=D("1040.00"))
    Rp.objects.filter(pk=rp.pk).update(obligado=D("0.00"))
    diferencias = services.recalcular_saldos(cdp)
    assert diferencias == {
        f"{rp.numero}.obligado": (D("0.00"), D("100.00")),
        "cdp.comprometido": (D("10.00"), D("400.00")),
        "cdp.saldo": (D("1040.00"), D("650.00")),
    }
    assert recargar(cdp).comprometido == D("10.00")  # only reported

    services.recalcular_saldos(cdp, corregir=True)
    assert services.recalcular_saldos(cdp) == {}
    cdp = recargar(cdp)
    assert (cdp.comprometido, cdp.saldo) == (D("400.00"), D("650.00"))
    assert recargar(rp).obligado == D("100.00")


def test_database_refuses_an_overdrawn_cdp_even_bypassing_services():
    from django.db import IntegrityError, transaction

    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    with pytest.raises(IntegrityError), transaction.atomic():
        Cdp.objects.filter(pk=cdp.pk).update(comprometido=D("1000.01"), saldo=D("-0.01"))


def test_a_requested_rp_annulment_gives_its_whole_value_back_when_applied():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_expedido(cdp, "400")
    movimiento = services.registrar_movimiento_rp(
        rp=rp, tipo="anulacion", descripcion="Contrato desistido", aplicar=False
    )
    services.registrar_movimiento_rp(rp=rp, tipo="adicion", valor="100", descripcion="+")
    services.aplicar_movimiento(movimiento=movimiento)
    rp, cdp, movimiento = recargar(rp), recargar(cdp), recargar(movimiento)
    assert (rp.estado, rp.valor_actual, rp.motivo_anulacion) == (
        "anulado",
        D("0.00"),
        "Contrato desistido",
    )
    assert (movimiento.estado, movimiento.valor) == ("aplicado", D("500.00"))
    assert (cdp.comprometido, cdp.saldo, cdp.estado) == (D("0.00"), D("1000.00"), "expedido")
    assert services.recalcular_saldos(cdp) == {}
