"""CDP and RP movements share one abstract base: what each shows of itself and its document."""

from __future__ import annotations

import pytest

from apps.presupuesto import services
from apps.presupuesto.models import MovimientoCdp, MovimientoRp
from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido

pytestmark = pytest.mark.django_db


@pytest.fixture
def movimientos():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "900")
    rp = rp_expedido(cdp, "400")
    services.registrar_movimiento_cdp(cdp=cdp, tipo="reduccion", valor="100", descripcion="-")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="50", descripcion="Pago")
    return MovimientoCdp.objects.get(), MovimientoRp.objects.get()


def test_each_movement_names_its_document_type_and_number(movimientos):
    mov_cdp, mov_rp = movimientos
    assert str(mov_cdp) == "CDP-2026-00001 · Reducción 1"
    assert str(mov_rp) == "RP-2026-00001 · Obligación 1"


def test_each_movement_reaches_its_own_document(movimientos):
    mov_cdp, mov_rp = movimientos
    assert mov_cdp.documento == mov_cdp.cdp
    assert mov_rp.documento == mov_rp.rp


def test_each_movement_keeps_its_own_types():
    assert [c for c, _ in MovimientoCdp._meta.get_field("tipo").choices] == [
        "adicion",
        "reduccion",
        "anulacion",
    ]
    assert [c for c, _ in MovimientoRp._meta.get_field("tipo").choices] == [
        "adicion",
        "reduccion",
        "obligacion",
        "anulacion",
    ]


def test_a_movement_without_document_still_has_a_name():
    assert str(MovimientoCdp(numero=1, tipo="adicion")) == "None · Adición 1"
