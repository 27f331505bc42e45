"""estado_cdp alone: every field with its type, the summary, an external number at its bound.

What it shares with estado_rp is tested in test_estado_cdp_rp.py."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.mcp_cliente import Respuesta, llamar, validador
from tests.presupuesto import documentos_presupuesto as mundos
from tests.presupuesto.documentos_presupuesto import CAMPOS_CDP, EXTRAS_CDP, IMPORTES_CDP
from tests.presupuesto.factories import cdp_expedido

pytestmark = pytest.mark.django_db


@pytest.fixture
def mundo_cdp():
    return mundos.mundo_cdp()


def _cdp(client, cabeceras, numero) -> Respuesta:
    return llamar(client, "estado_cdp", {"numero": numero}, **cabeceras)


def test_the_owner_area_gets_every_cdp_field_with_its_type(client, mundo_cdp):
    cdp = mundo_cdp["cdp"]
    datos = validador("estado_cdp")(_cdp(client, mundo_cdp["como_duena"], cdp.numero))
    assert set(datos) == CAMPOS_CDP | EXTRAS_CDP
    assert datos["numero_cdp"] == cdp.numero == "CDP-2026-00001"
    assert datos["numero_externo"] == "EXT-4521"
    assert datos["numero_radicado"] == "SOL-2026-000123"
    assert datos["estado"] == "expedido"
    assert datos["estado_visible"] == "Expedido"
    assert datos["estado_descripcion"].startswith("El CDP fue expedido")
    assert datos["estado_expedicion"] is None
    assert datos["area"] == "Oficina Asesora de Planeación"
    assert datos["area_sigla"] == "OAP"
    assert datos["dependencia"] == "Grupo de Planeación"  # invisible character removed
    assert datos["objeto"] == "Consultoría para el plan estratégico"
    assert datos["fecha_expedicion"] == "2026-03-05"
    assert datos["movimientos"] == 1 and isinstance(datos["movimientos"], int)
    assert datos["motivo_devolucion"] is None and datos["motivo_rechazo"] is None
    assert datos["encontrado"] is True
    assert datos["vigencia"] == 2026 and datos["proyecto"] == "2026-001"
    assert datos["linea_paa"] is None
    assert datos["enlace"] == f"/presupuesto/cdp/{cdp.pk}"
    assert datos["url"] == f"{settings.HUB_URL_PUBLICA}/presupuesto/cdp/{cdp.pk}"
    for campo in IMPORTES_CDP:
        assert isinstance(datos[campo], int | float) and not isinstance(datos[campo], bool)


def test_the_cdp_summary_is_spanish_with_amounts_for_people(client, mundo_cdp):
    r = _cdp(client, mundo_cdp["como_duena"], mundo_cdp["cdp"].numero)
    resumen = r.resultado["content"][0]["text"]
    assert resumen.startswith("CDP-2026-00001 (n.º externo EXT-4521): Expedido.")
    assert "valor inicial $ 1.500.000,00" in resumen.lower()
    assert "saldo $ 1.000.000,25" in resumen
    assert "comprometido en RP $ 500.000,00" in resumen
    assert "Oficina Asesora de Planeación" in resumen
    assert "\u202e" not in resumen and "\u200b" not in resumen


def test_a_cdp_whose_external_number_is_at_the_bound_is_found(client, mundo_cdp):
    cdp = cdp_expedido(mundo_cdp["proyecto"], mundo_cdp["oap"], "10.00", numero_externo="Z" * 30)
    datos = validador("estado_cdp")(_cdp(client, mundo_cdp["como_duena"], "z" * 30))
    assert datos["numero_cdp"] == cdp.numero
