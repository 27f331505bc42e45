"""Signature summaries of the budget documents, and signing them through apps.firmas."""

from __future__ import annotations

import pytest

from apps.firmas import services as firmas
from apps.firmas.selectors import resumen_verificacion
from apps.presupuesto import services
from tests.presupuesto.factories import cdp_expedido, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db


@pytest.fixture
def docs():
    proyecto, area = celda("5000")
    lin = linea(proyecto, area, "900", objeto="Servicios de apoyo a la planeación")
    cdp = services.expedir_cdp(
        cdp=services.solicitar_cdp(
            linea_paa=lin,
            objeto="Apoyo a la planeación",
            valor="900",
            numero_radicado="SOL-2026-000010",
        )
    )
    rp = rp_expedido(cdp, "400", numero_radicado="SOL-2026-000011")
    mov_cdp = services.registrar_movimiento_cdp(
        cdp=cdp, tipo="reduccion", valor="100", descripcion="Menor valor"
    )
    mov_rp = services.registrar_movimiento_rp(
        rp=rp, tipo="obligacion", valor="50", descripcion="Pago 1"
    )
    objetos = {"linea": lin, "cdp": cdp, "rp": rp, "mov_cdp": mov_cdp, "mov_rp": mov_rp}
    return {clave: type(o).objects.get(pk=o.pk) for clave, o in objetos.items()}


def test_paa_line_summary(docs):
    resumen = docs["linea"].resumen_firma()
    assert resumen == {
        "tipo": "paa",
        "linea": docs["linea"].numero,
        "objeto": "Servicios de apoyo a la planeación",
        "estado": "en_ejecucion",
    }
    assert isinstance(resumen["linea"], int)
    assert type(resumen["estado"]) is str


def test_cdp_summary(docs):
    assert docs["cdp"].resumen_firma() == {
        "tipo": "cdp",
        "numero_cdp": "CDP-2026-00001",
        "radicado": "SOL-2026-000010",
        "objeto": "Apoyo a la planeación",
        "estado": "expedido",
    }


def test_rp_summary(docs):
    assert docs["rp"].resumen_firma() == {
        "tipo": "rp",
        "numero_rp": "RP-2026-00001",
        "numero_cdp": "CDP-2026-00001",
        "radicado": "SOL-2026-000011",
        "objeto": "Prestación de servicios profesionales",
        "estado": "expedido",
    }


def test_movement_summaries_carry_their_type(docs):
    assert docs["mov_cdp"].resumen_firma() == {
        "tipo": "cdp_reduccion",
        "numero_cdp": "CDP-2026-00001",
        "objeto": "Apoyo a la planeación",
        "estado": "aplicado",
    }
    assert docs["mov_rp"].resumen_firma() == {
        "tipo": "rp_obligacion",
        "numero_rp": "RP-2026-00001",
        "numero_cdp": "CDP-2026-00001",
        "objeto": "Prestación de servicios profesionales",
        "estado": "aplicado",
    }


def test_no_summary_reveals_the_beneficiary_document(docs):
    for doc in docs.values():
        assert "900123456-7" not in repr(doc.resumen_firma())


def test_radicado_is_none_when_no_request_originated_the_cdp():
    proyecto, area = celda("5000")
    assert cdp_expedido(proyecto, area).resumen_firma()["radicado"] is None


@pytest.mark.parametrize("clave", ["linea", "cdp", "rp", "mov_cdp", "mov_rp"])
def test_each_document_can_be_signed_verified_and_annulled(docs, clave, django_assert_num_queries):
    documento = docs[clave]
    firma = firmas.firmar(documento=documento, firmante="Camila Rojas Díaz", rol="Ordenadora")
    assert list(documento.firmas.all()) == [firma]  # the GenericRelation
    with django_assert_num_queries(3):
        verificacion = resumen_verificacion(str(firma.token))
    assert verificacion["documento"] == documento.resumen_firma()
    assert (verificacion["valido"], verificacion["total_firmas"]) == (True, 1)
    firmas.anular(firma=firma, motivo="Proceso reiniciado")
    assert resumen_verificacion(str(firma.token))["anulada"] is True
