"""Who sees which budget rows: the area's people, holders of areas.todas, nobody else."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from apps.presupuesto import selectors
from apps.presupuesto.models import Asignacion, Cdp, LineaPaa, MovimientoCdp, Proyecto, Rp
from tests.factories import AreaFactory, UserFactory
from tests.presupuesto.mundos import CAMPOS_RP, DOCUMENTO_BENEFICIARIO, cdp_de_oap

pytestmark = pytest.mark.django_db


@pytest.fixture
def mundo():
    """One CDP (with RP, movement and PAA line) in area A, and four kinds of people."""
    m = cdp_de_oap(objeto="Apoyo a la planeación", reduccion="-")
    area, otra = m["area"], m["otra"]
    return {
        "area": area,
        "cdp": Cdp.objects.get(pk=m["cdp"].pk),
        "rp": m["rp"],
        "linea": m["linea"],
        "proyecto": m["proyecto"],
        "duena": UserFactory(areas=[area], permisos=["presupuesto.planeacion.consultar"]),
        "colega": UserFactory(areas=[otra], permisos=["presupuesto.areas.todas"]),
        "ajena": UserFactory(areas=[otra], permisos=["presupuesto.planeacion.consultar"]),
        "inactiva": UserFactory(areas=[area], is_active=False),
    }


CONSULTAS = {
    "cdp": lambda u: Cdp.objects.visibles_para(u),
    "rp": lambda u: Rp.objects.visibles_para(u),
    "linea": lambda u: LineaPaa.objects.visibles_para(u),
    "movimiento": lambda u: MovimientoCdp.objects.visibles_para(u),
    "asignacion": lambda u: Asignacion.objects.visibles_para(u).filter(area__sigla="OAP"),
    "proyecto": lambda u: Proyecto.objects.visibles_para(u),
}


@pytest.mark.parametrize("consulta", CONSULTAS)
def test_area_owner_sees_the_rows_of_her_area(mundo, consulta):
    assert CONSULTAS[consulta](mundo["duena"]).count() == 1


@pytest.mark.parametrize("consulta", CONSULTAS)
def test_colleague_with_areas_todas_sees_every_area(mundo, consulta):
    assert CONSULTAS[consulta](mundo["colega"]).count() == 1


@pytest.mark.parametrize("consulta", ["cdp", "rp", "linea", "movimiento", "asignacion"])
def test_outsider_of_another_area_sees_nothing(mundo, consulta):
    assert CONSULTAS[consulta](mundo["ajena"]).count() == 0


def test_outsider_sees_the_project_only_through_her_own_assignment(mundo):
    # The project has an assignment in her area too: she sees the project, not OAP's rows.
    assert list(Proyecto.objects.visibles_para(mundo["ajena"])) == [mundo["proyecto"]]
    otro = AreaFactory(sigla="OCI")
    extrana = UserFactory(areas=[otro])
    assert Proyecto.objects.visibles_para(extrana).count() == 0


@pytest.mark.parametrize("consulta", CONSULTAS)
def test_inactive_user_sees_nothing_even_of_her_area(mundo, consulta):
    assert CONSULTAS[consulta](mundo["inactiva"]).count() == 0


def test_anonymous_sees_nothing(mundo):
    from django.contrib.auth.models import AnonymousUser

    assert Cdp.objects.visibles_para(AnonymousUser()).count() == 0
    assert selectors.ficha_cdp(AnonymousUser(), mundo["cdp"].numero) is None


@pytest.mark.parametrize("numero", ["2326", " 2326 ", "cdp-2026-00001", "CDP-2026-00001"])
def test_por_numero_matches_own_or_external_number_ignoring_case(mundo, numero):
    assert list(Cdp.objects.por_numero(numero)) == [mundo["cdp"]]


@pytest.mark.parametrize("numero", ["232", "CDP-2026-0000", "", "7781"])
def test_por_numero_needs_an_exact_number(mundo, numero):
    assert Cdp.objects.por_numero(numero).count() == 0


def test_ficha_cdp_by_external_number_has_every_estado_cdp_field(mundo):
    ficha = selectors.ficha_cdp(mundo["duena"], "2326")
    assert ficha == {
        "encontrado": True,
        "numero_cdp": "CDP-2026-00001",
        "numero_externo": "2326",
        "numero_radicado": None,
        "estado": "expedido",
        "estado_visible": "Expedido",
        "estado_descripcion": "El CDP fue expedido y tiene saldo disponible para comprometer.",
        "estado_expedicion": None,
        "area": "Oficina Asesora de Planeación",
        "area_sigla": "OAP",
        "dependencia": None,
        "objeto": "Apoyo a la planeación",
        "valor_inicial": Decimal("900.00"),
        "valor_actual": Decimal("800.00"),
        "comprometido": Decimal("400.00"),
        "saldo": Decimal("400.00"),
        "fecha_expedicion": datetime.date.today().isoformat(),
        "movimientos": 1,
        "motivo_devolucion": None,
        "motivo_rechazo": None,
        "vigencia": 2026,
        "proyecto": mundo["proyecto"].codigo,
        "linea_paa": mundo["linea"].numero,
        "enlace": f"/presupuesto/cdp/{mundo['cdp'].pk}",
    }


def test_ficha_cdp_is_none_for_outsider_and_inactive(mundo):
    assert selectors.ficha_cdp(mundo["ajena"], "2326") is None
    assert selectors.ficha_cdp(mundo["inactiva"], "2326") is None
    assert selectors.ficha_cdp(mundo["colega"], "2326")["numero_cdp"] == "CDP-2026-00001"


def test_ficha_rp_has_every_estado_rp_field_and_never_the_beneficiary_document(mundo):
    ficha = selectors.ficha_rp(mundo["duena"], "7781")
    assert set(ficha) >= CAMPOS_RP  # every field estado_rp promises
    assert (ficha["numero_rp"], ficha["cdp"], ficha["beneficiario"]) == (
        "RP-2026-00001",
        "CDP-2026-00001",
        "María Fernanda Ruiz",
    )
    assert (ficha["valor_actual"], ficha["obligado"], ficha["estado"]) == (
        Decimal("400.00"),
        Decimal("0.00"),
        "expedido",
    )
    assert DOCUMENTO_BENEFICIARIO not in repr(ficha)
    assert selectors.ficha_rp(mundo["ajena"], "7781") is None
    assert selectors.ficha_rp(mundo["colega"], "rp-2026-00001")["numero_rp"] == "RP-2026-00001"


def test_people_text_is_returned_without_invisible_characters(mundo):
    Cdp.objects.filter(pk=mundo["cdp"].pk).update(objeto="Apoyo\u202e a la\u200b planeación")
    assert selectors.ficha_cdp(mundo["duena"], "2326")["objeto"] == "Apoyo a la planeación"


def test_search_scope_finds_visible_cdp_and_rp_only(mundo):
    resultado = selectors.buscar(mundo["duena"], "planeacion")
    assert resultado["total"] == 1
    assert [(r["tipo"], r["numero"]) for r in resultado["resultados"]] == [
        ("cdp", "CDP-2026-00001")
    ]
    por_beneficiaria = selectors.buscar(mundo["duena"], "maria ruiz")
    assert [r["numero"] for r in por_beneficiaria["resultados"]] == ["RP-2026-00001"]
    assert selectors.buscar(mundo["ajena"], "planeacion")["total"] == 0
    assert selectors.buscar(mundo["colega"], "planeacion")["total"] == 1


def test_search_puts_exact_numbers_first_and_never_matches_the_beneficiary_document(mundo):
    resultado = selectors.buscar(mundo["duena"], "CDP-2026-00001")
    assert [(r["tipo"], r["exacto"]) for r in resultado["resultados"]] == [
        ("cdp", True),
        ("rp", False),
    ]
    assert selectors.buscar(mundo["colega"], "900123456")["total"] == 0
