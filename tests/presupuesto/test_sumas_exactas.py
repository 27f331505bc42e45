"""Aggregated amounts keep exactly two decimals on every database (SQLite sums as floats)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.presupuesto import selectors, services
from apps.presupuesto.selectors import suma
from tests.factories import AreaFactory, UserFactory
from tests.presupuesto.factories import (
    MARZO,
    ActividadFactory,
    ProyectoFactory,
    VigenciaFactory,
    cdp_expedido,
    linea,
    rp_expedido,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def datos():
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    area = AreaFactory(sigla="OAP")
    proyecto = ProyectoFactory(vigencia=vigencia)
    actividad = ActividadFactory(proyecto=proyecto)
    services.asignar(proyecto=proyecto, area=area, valor="3000000.10")
    lineas = [
        linea(proyecto, area, v, mes=MARZO, actividad=actividad) for v in ("100.10", "200.20")
    ]
    cdp = services.expedir_cdp(
        cdp=services.solicitar_cdp(linea_paa=lineas[0], objeto="Uno", valor="1299999.65")
    )
    cdp_expedido(proyecto, area, "0.35")
    rp = rp_expedido(cdp, "500000.00")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="200000.10", descripcion="P")
    return {
        "proyecto": proyecto,
        "area": area,
        "todas": UserFactory(permisos=["presupuesto.areas.todas"]),
    }


def test_suma_quantizes_to_cents_and_reads_none_as_zero():
    assert str(suma(Decimal("200000.100000000"))) == "200000.10"
    assert str(suma(None)) == "0.00"
    assert str(suma(Decimal("5"))) == "5.00"


def test_dashboard_sums_carry_the_stored_cents(datos):
    tablero = selectors.tablero(datos["todas"], proyecto=datos["proyecto"], detalle=True)
    assert str(tablero["asignado"]) == "3000000.10"
    assert str(tablero["certificado"]) == "1300000.00"
    assert str(tablero["obligado"]) == "200000.10"
    assert str(tablero["disponible"]) == "1700000.10"
    assert str(tablero["programado"]) == "300.30"
    actividad = tablero["detalle"]["actividades"][0]
    assert (str(actividad["programado"]), str(actividad["certificado"])) == (
        "300.30",
        "1299999.65",
    )


def test_area_and_month_sums_carry_the_stored_cents(datos):
    resumen = selectors.resumen_area(datos["todas"], datos["area"])
    expedidos = next(f for f in resumen["cdp_por_estado"] if f["estado"] == "expedido")
    assert str(expedidos["valor_actual"]) == "1300000.00"
    assert str(resumen["obligado"]) == "200000.10"
    mes = selectors.paa_mes(datos["todas"], MARZO)
    assert str(mes["valor_total"]) == "300.30"
    assert str(mes["por_area"][0]["valor"]) == "300.30"
    ejecucion = next(f for f in mes["por_estado"] if f["estado"] == "en_ejecucion")
    assert str(ejecucion["valor"]) == "100.10"
