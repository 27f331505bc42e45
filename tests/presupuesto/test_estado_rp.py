"""estado_rp alone: every field with its type, never the beneficiary's document, the summary,
a fully obligated RP, a CDP number.

What it shares with estado_cdp is tested in test_estado_cdp_rp.py."""

from __future__ import annotations

import pytest
from django.conf import settings

from apps.presupuesto import services
from tests.mcp_cliente import Respuesta, error_herramienta, llamar, validador
from tests.presupuesto import documentos_presupuesto as mundos
from tests.presupuesto.documentos_presupuesto import (
    CAMPOS_RP,
    DOCUMENTO_BENEFICIARIO,
    EXTRAS_RP,
    IMPORTES_RP,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mundo_rp():
    return mundos.mundo_rp()


def _rp(client, cabeceras, numero) -> Respuesta:
    return llamar(client, "estado_rp", {"numero": numero}, **cabeceras)


def test_the_owner_area_gets_every_rp_field_with_its_type(client, mundo_rp):
    rp = mundo_rp["rp"]
    datos = validador("estado_rp")(_rp(client, mundo_rp["como_duena"], rp.numero))
    assert set(datos) == CAMPOS_RP | EXTRAS_RP
    assert datos["numero_rp"] == rp.numero == "RP-2026-00001"
    assert datos["numero_externo"] == "RP-77"
    assert datos["numero_radicado"] == "SOL-2026-000456"
    assert datos["estado"] == "expedido" and datos["estado_visible"] == "Expedido"
    assert datos["estado_descripcion"].startswith("El RP fue expedido")
    assert datos["estado_expedicion"] is None
    assert datos["cdp"] == mundo_rp["cdp"].numero
    assert datos["beneficiario"] == "Consultores Andinos S.A.S."  # invisible characters removed
    assert datos["objeto"] == "Consultoría para el plan estratégico"
    assert datos["fecha_expedicion"] == "2026-03-20"
    assert datos["fecha_inicio"] == "2026-04-01"
    assert datos["fecha_fin"] == "2026-12-15"
    assert datos["motivo_devolucion"] is None and datos["motivo_rechazo"] is None
    assert datos["encontrado"] is True
    assert datos["movimientos"] == 1
    assert datos["area"] == "Oficina Asesora de Planeación" and datos["vigencia"] == 2026
    assert datos["enlace"] == f"/presupuesto/rp/{rp.pk}"
    assert datos["url"] == f"{settings.HUB_URL_PUBLICA}/presupuesto/rp/{rp.pk}"
    for campo in IMPORTES_RP:
        assert isinstance(datos[campo], int | float) and not isinstance(datos[campo], bool)


def test_the_beneficiarys_document_never_appears(client, mundo_rp):
    r = _rp(client, mundo_rp["como_duena"], mundo_rp["rp"].numero)
    assert DOCUMENTO_BENEFICIARIO not in r.http.content.decode()
    assert not any("documento" in campo for campo in r.estructura)


def test_the_rp_summary_is_spanish_with_amounts_for_people(client, mundo_rp):
    r = _rp(client, mundo_rp["como_duena"], mundo_rp["rp"].numero)
    resumen = r.resultado["content"][0]["text"]
    assert resumen.startswith("RP-2026-00001 (n.º externo RP-77): Expedido.")
    assert "obligado $ 450.000,50; por obligar $ 749.999,50" in resumen
    assert f"Respaldado por el {mundo_rp['cdp'].numero}" in resumen
    assert "Plazo: 2026-04-01 a 2026-12-15." in resumen
    assert "Beneficiario: Consultores Andinos S.A.S. Objeto: «Consultoría" in resumen
    assert DOCUMENTO_BENEFICIARIO not in resumen


def test_a_fully_obligated_rp_is_ejecutado(client, mundo_rp):
    services.registrar_movimiento_rp(
        rp=mundo_rp["rp"], tipo="obligacion", valor="749999.50", descripcion="Pago final"
    )
    datos = validador("estado_rp")(_rp(client, mundo_rp["como_duena"], mundo_rp["rp"].numero))
    assert datos["estado"] == "ejecutado"
    assert datos["obligado"] == datos["valor_actual"] == 1200000.0


def test_a_cdp_number_is_not_an_rp(client, mundo_rp):
    r = _rp(client, mundo_rp["como_duena"], mundo_rp["cdp"].numero)
    error_herramienta(r, "NO_ENCONTRADO")
