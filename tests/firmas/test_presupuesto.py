"""The real signed documents of the budget app, verified end to end."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.firmas import services
from apps.firmas.selectors import resumen_verificacion
from apps.presupuesto import services as presupuesto
from tests.presupuesto.factories import cdp_expedido, celda, linea

pytestmark = pytest.mark.django_db

API = "/presupuesto/api/v1/firmas/verificar/"
ALIAS = "/presupuesto/api/v1/paa/firmas/verificar/"


@pytest.fixture
def cdp():
    proyecto, area = celda("5000.00")
    return cdp_expedido(proyecto, area, "1000.00", objeto="Apoyo jurídico " + "x" * 200)


def test_a_signed_cdp_verifies_with_its_own_summary(api, cdp):
    firma = services.firmar(documento=cdp, firmante="Ana Ruiz", rol="Ordenador del gasto")
    r = api.get(f"{API}{firma.token}")
    assert r.status_code == 200
    documento = r.json()["data"]["documento"]
    esperado = cdp.resumen_firma()
    assert documento["tipo"] == "cdp"
    assert documento["numero_cdp"] == esperado["numero_cdp"]
    assert documento["estado"] == esperado["estado"]
    assert len(documento["objeto"]) == 120 and documento["objeto"].endswith("…")
    assert api.get(f"{ALIAS}{firma.token}").content == r.content


def test_a_movement_is_a_document_of_its_own(api, cdp):
    services.firmar(documento=cdp, firmante="Ana Ruiz", rol="Ordenador del gasto")
    services.firmar(documento=cdp, firmante="Luis Mora", rol="Profesional de presupuesto")
    movimiento = presupuesto.registrar_movimiento_cdp(
        cdp=cdp, tipo="reduccion", valor="100.00", descripcion="Ajuste del valor"
    )
    firma = services.firmar(documento=movimiento, firmante="Ana Ruiz", rol="Ordenador del gasto")
    data = api.get(f"{API}{firma.token}").json()["data"]
    assert data["documento"]["tipo"] == "cdp_reduccion"
    assert data["total_firmas"] == 1


def test_a_paa_line_verifies_through_the_paa_alias(api):
    proyecto, area = celda("5000.00")
    paa = linea(proyecto, area, "800.00")
    firma = services.firmar(documento=paa, firmante="Diana Téllez", rol="Planeación")
    data = api.get(f"{ALIAS}{firma.token}").json()["data"]
    assert data["documento"]["tipo"] == "paa"
    assert data["documento"]["linea"] == paa.resumen_firma()["linea"]


def test_the_cost_of_verifying_a_movement_does_not_grow_with_its_signatures(cdp):
    movimiento = presupuesto.registrar_movimiento_cdp(
        cdp=cdp, tipo="reduccion", valor="100.00", descripcion="Ajuste del valor"
    )
    firma = services.firmar(documento=movimiento, firmante="Ana Ruiz", rol="Ordenador del gasto")
    with CaptureQueriesContext(connection) as antes:
        resumen_verificacion(str(firma.token))
    for n in range(8):
        services.firmar(documento=movimiento, firmante=f"Persona {n}", rol="Revisión")
        services.firmar(documento=cdp, firmante=f"Persona {n}", rol="Revisión")
    with CaptureQueriesContext(connection) as despues:
        assert resumen_verificacion(str(firma.token))["total_firmas"] == 9
    assert len(despues) == len(antes) == 3
