"""Public verification from the cache: a repeated code costs no query, and an annulment, a new
signature or a change of the signed document is answered at once."""

from __future__ import annotations

import pytest

from apps.firmas import services
from apps.firmas.api import MENSAJE_ANULADA, MENSAJE_VALIDA
from apps.presupuesto.models import Cdp
from tests.presupuesto.factories import cdp_expedido, celda, linea

pytestmark = pytest.mark.django_db

API = "/presupuesto/api/v1/firmas/verificar/"


@pytest.fixture
def cdp():
    proyecto, area = celda("5000.00")
    return cdp_expedido(proyecto, area, "1000.00", objeto="Apoyo jurídico")


@pytest.fixture
def firma(cdp):
    return services.firmar(documento=cdp, firmante="Ana Ruiz", rol="Ordenador del gasto")


def _verificar(api, firma):
    return api.get(f"{API}{firma.token}")


def test_a_code_verified_again_costs_no_query(api, firma, django_assert_num_queries):
    primera = _verificar(api, firma)
    with django_assert_num_queries(0):
        segunda = _verificar(api, firma)
    assert segunda.content == primera.content
    assert segunda.json()["message"] == MENSAJE_VALIDA


def test_the_same_code_in_capitals_is_the_same_cached_answer(api, firma, django_assert_num_queries):
    _verificar(api, firma)
    with django_assert_num_queries(0):
        r = api.get(f"{API}{str(firma.token).upper()}")
    assert r.json()["data"]["valido"] is True


def test_an_annulled_signature_is_answered_as_annulled_at_once(api, firma):
    assert _verificar(api, firma).json()["data"]["valido"] is True
    services.anular(firma=firma, motivo="El proceso fue rechazado y reiniciado.")
    r = _verificar(api, firma)
    assert r.json()["message"] == MENSAJE_ANULADA
    assert (r.json()["data"]["valido"], r.json()["data"]["anulada"]) == (False, True)


def test_annulling_every_signature_of_a_document_is_answered_at_once(api, cdp, firma):
    otra = services.firmar(documento=cdp, firmante="Luis Peña", rol="Jefe de presupuesto")
    assert _verificar(api, otra).json()["data"]["total_firmas"] == 2
    services.anular_firmas_de(documento=cdp, motivo="El proceso se reinició.")
    assert _verificar(api, firma).json()["message"] == MENSAJE_ANULADA
    assert _verificar(api, otra).json()["data"]["total_firmas"] == 0


def test_a_new_signature_of_the_document_changes_the_count_at_once(api, cdp, firma):
    assert _verificar(api, firma).json()["data"]["total_firmas"] == 1
    services.firmar(documento=cdp, firmante="Luis Peña", rol="Jefe de presupuesto")
    assert _verificar(api, firma).json()["data"]["total_firmas"] == 2


def test_a_change_of_the_signed_document_is_answered_at_once(api, cdp, firma):
    assert _verificar(api, firma).json()["data"]["documento"]["objeto"] == "Apoyo jurídico"
    documento = Cdp.objects.get(pk=cdp.pk)
    documento.objeto = "Apoyo jurídico y contractual"
    documento.save()
    objeto = _verificar(api, firma).json()["data"]["documento"]["objeto"]
    assert objeto == "Apoyo jurídico y contractual"


def test_unknown_codes_are_not_cached(api, django_assert_num_queries):
    api.get(f"{API}0e9b6c1e-5d3a-4f0b-9a57-0d4c7e0f2a11")
    with django_assert_num_queries(1):  # looked up again: nothing to vouch for was stored
        r = api.get(f"{API}0e9b6c1e-5d3a-4f0b-9a57-0d4c7e0f2a11")
    assert r.json()["error"]["code"] == "FIRMA_NO_ENCONTRADA"


def test_a_paa_line_put_into_execution_by_its_first_cdp_is_answered_at_once(api):
    proyecto, area = celda("5000.00")
    linea_paa = linea(proyecto, area, "2000.00")
    firma = services.firmar(documento=linea_paa, firmante="Ana Ruiz", rol="Jefe de planeación")
    assert _verificar(api, firma).json()["data"]["documento"]["estado"] == "aprobada"
    cdp_expedido(proyecto, area, "1000.00", linea_paa=linea_paa)
    assert _verificar(api, firma).json()["data"]["documento"]["estado"] == "en_ejecucion"
