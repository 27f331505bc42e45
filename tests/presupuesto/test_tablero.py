"""Dashboard figures on a known dataset: exact amounts, traffic lights, filters, query counts."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto import selectors, services
from apps.presupuesto.models import Proyecto
from apps.presupuesto.selectors import FiltroInvalido, semaforo
from tests.factories import AreaFactory, UserFactory
from tests.presupuesto import mundos
from tests.presupuesto.factories import (
    MARZO,
    ProyectoFactory,
    cdp_expedido,
    linea,
    rp_expedido,
)

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def datos():
    """The dashboard's world (tests/presupuesto/mundos.py) in whole pesos: OAP amarillo, OTI rojo,
    GTH verde; certified 2.700.000; obligated 200.000."""
    mundo = mundos.mundo_tablero(obligado="200000", certificado_oti="500000")
    oap = mundo["oap"]
    return {
        **mundo,
        "todas": UserFactory(
            permisos=["presupuesto.reportes.consultar", "presupuesto.areas.todas"]
        ),
        "oap_user": UserFactory(areas=[oap], permisos=["presupuesto.reportes.consultar"]),
    }


def test_whole_dashboard_for_someone_who_sees_every_area(datos):
    t = selectors.tablero(datos["todas"])
    assert t["vigencia"] == 2026
    assert t["todas_las_areas"] is True
    assert (t["tope"], t["sin_asignar"]) == (D("10000000.00"), D("6000000.00"))
    assert (t["asignado"], t["programado"], t["certificado"]) == (
        D("4000000.00"),
        D("1800000.00"),
        D("2700000.00"),
    )
    assert (t["comprometido"], t["obligado"], t["disponible"]) == (
        D("1900000.00"),
        D("200000.00"),
        D("1300000.00"),
    )
    assert (t["porcentaje_disponible"], t["avance"], t["semaforo"]) == (
        D("32.50"),
        D("47.50"),
        "verde",
    )
    assert [(f["estado"], f["cantidad"], f["valor"]) for f in t["lineas_paa"]] == [
        ("borrador", 1, D("100000.00")),
        ("en_revision", 1, D("200000.00")),
        ("aprobada", 0, D("0.00")),
        ("en_ejecucion", 2, D("1800000.00")),
        ("ejecutada", 0, D("0.00")),
        ("anulada", 1, D("300000.00")),
    ]
    assert t["lineas_paa_total"] == {"cantidad": 4, "valor": D("2100000.00")}


def test_availability_by_area_falls_in_each_traffic_light_colour(datos):
    t = selectors.tablero(datos["todas"])
    por_area = {f["sigla"]: f for f in t["por_area"]}
    assert [f["sigla"] for f in t["por_area"]] == ["GTH", "OAP", "OTI"]
    assert (
        por_area["OAP"]["asignado"],
        por_area["OAP"]["certificado"],
        por_area["OAP"]["disponible"],
        por_area["OAP"]["porcentaje_disponible"],
        por_area["OAP"]["semaforo"],
    ) == (D("1000000.00"), D("800000.00"), D("200000.00"), D("20.00"), "amarillo")
    assert (
        por_area["OTI"]["disponible"],
        por_area["OTI"]["porcentaje_disponible"],
        por_area["OTI"]["semaforo"],
    ) == (D("100000.00"), D("5.00"), "rojo")
    assert (
        por_area["GTH"]["certificado"],
        por_area["GTH"]["porcentaje_disponible"],
        por_area["GTH"]["semaforo"],
        por_area["GTH"]["programado"],
    ) == (D("0.00"), D("100.00"), "verde", D("0.00"))


def test_availability_by_project(datos):
    por_proyecto = {f["codigo"]: f for f in selectors.tablero(datos["todas"])["por_proyecto"]}
    assert (
        por_proyecto["2026-001"]["asignado"],
        por_proyecto["2026-001"]["disponible"],
        por_proyecto["2026-001"]["porcentaje_disponible"],
        por_proyecto["2026-001"]["semaforo"],
        por_proyecto["2026-001"]["comprometido"],
    ) == (D("1500000.00"), D("200000.00"), D("13.33"), "amarillo", D("500000.00"))
    assert (
        por_proyecto["2026-002"]["disponible"],
        por_proyecto["2026-002"]["porcentaje_disponible"],
        por_proyecto["2026-002"]["semaforo"],
        por_proyecto["2026-002"]["comprometido"],
    ) == (D("1100000.00"), D("44.00"), "verde", D("1400000.00"))


def test_area_owner_sees_only_her_area_and_its_ceiling_is_her_assignment(datos):
    t = selectors.tablero(datos["oap_user"])
    assert t["todas_las_areas"] is False
    assert (t["tope"], t["sin_asignar"], t["asignado"], t["certificado"]) == (
        D("1000000.00"),
        None,
        D("1000000.00"),
        D("800000.00"),
    )
    assert (t["comprometido"], t["programado"]) == (D("500000.00"), D("600000.00"))
    assert [f["sigla"] for f in t["por_area"]] == ["OAP"]
    assert [f["codigo"] for f in t["por_proyecto"]] == ["2026-001"]


def test_outsider_and_inactive_users_see_empty_figures(datos):
    ajena = UserFactory(areas=[AreaFactory(sigla="OCI")])
    t = selectors.tablero(ajena)
    assert (t["asignado"], t["certificado"], t["por_area"]) == (D("0"), D("0"), [])
    inactiva = UserFactory(areas=[datos["oap"]], is_active=False)
    assert selectors.tablero(inactiva)["asignado"] == D("0")


def test_filters_by_project_text_and_area_abbreviation(datos):
    t = selectors.tablero(datos["todas"], proyecto="digital", area="oti")
    assert [p["codigo"] for p in t["filtros"]["proyectos"]] == ["2026-002"]
    assert [a["sigla"] for a in t["filtros"]["areas"]] == ["OTI"]
    assert (t["tope"], t["asignado"], t["certificado"], t["comprometido"]) == (
        D("1500000.00"),
        D("1500000.00"),
        D("1400000.00"),
        D("1400000.00"),
    )
    assert t["sin_asignar"] is None


@pytest.mark.parametrize("texto", ["2026-001", "fortalecimiento", "INSTITUCIONAL fortalec"])
def test_project_matches_by_code_or_partial_name(datos, texto):
    assert list(Proyecto.objects.coincidentes(texto)) == [datos["p1"]]


def test_project_matches_by_id_before_partial_names(datos):
    assert set(Proyecto.objects.coincidentes("2026")) == {datos["p1"], datos["p2"]}
    buscado = datos["p2"]
    # Its id as a word in another project's code and name, whatever the database's sequence
    # gave: only the exact-match rule keeps this one out of the answer.
    homonimo = ProyectoFactory(
        vigencia=datos["vigencia"], codigo=f"X-{buscado.pk}", nombre=f"Convenio {buscado.pk}"
    )
    assert list(Proyecto.objects.coincidentes(f"convenio {buscado.pk}")) == [homonimo]
    assert list(Proyecto.objects.coincidentes(str(buscado.pk))) == [buscado]


@pytest.mark.parametrize(
    "texto", ["OAP", "oap", "planeacion", "Oficina Asesora de Planeación", "asesora planea"]
)
def test_area_matches_by_abbreviation_or_name_without_accents(datos, texto):
    assert selectors.areas_coincidentes(texto) == [datos["oap"]]


def test_area_matches_by_id(datos):
    assert selectors.areas_coincidentes(str(datos["gth"].pk)) == [datos["gth"]]


def test_unknown_or_invisible_filters_raise_filtro_invalido(datos):
    with pytest.raises(FiltroInvalido) as error:
        selectors.tablero(datos["todas"], proyecto="inexistente")
    assert error.value.campo == "proyecto"
    with pytest.raises(FiltroInvalido) as error:
        selectors.tablero(datos["oap_user"], area="OTI")
    assert error.value.campo == "area"
    with pytest.raises(FiltroInvalido):
        selectors.tablero(datos["oap_user"], area=datos["oti"])


def test_detail_of_a_single_project_lists_its_activities(datos):
    t = selectors.tablero(datos["todas"], proyecto="2026-002", detalle=True)
    detalle = t["detalle"]
    assert detalle["proyecto"]["codigo"] == "2026-002"
    assert detalle["actividades"] == [
        {
            "id": datos["actividad"].pk,
            "codigo": "ACT-1",
            "nombre": "Nube y servidores",
            "activa": True,
            "lineas_paa": 1,
            "programado": D("1200000.00"),
            "certificado": D("1400000.00"),
        }
    ]
    assert [(f["sigla"], f["semaforo"]) for f in t["por_area"]] == [
        ("GTH", "verde"),
        ("OTI", "rojo"),
    ]
    assert "detalle" not in selectors.tablero(datos["todas"], proyecto="2026", detalle=True)


def test_no_active_vigencia_gives_none(datos):
    datos["vigencia"].activa = False
    datos["vigencia"].save()
    assert selectors.tablero(datos["todas"]) is None
    assert selectors.resumen_area(datos["todas"], "OAP") is None


def test_resumen_area(datos):
    r = selectors.resumen_area(datos["oap_user"], "planeación")
    assert r["area"]["sigla"] == "OAP"
    assert (r["asignado"], r["certificado"], r["disponible"], r["semaforo"]) == (
        D("1000000.00"),
        D("800000.00"),
        D("200000.00"),
        "amarillo",
    )
    assert {f["estado"]: f["cantidad"] for f in r["lineas_paa"]}["borrador"] == 1
    assert {f["estado"]: f["cantidad"] for f in r["cdp_por_estado"]} == {
        "solicitado": 0,
        "en_revision": 0,
        "devuelto": 0,
        "rechazado": 0,
        "expedido": 1,
        "agotado": 0,
        "anulado": 0,
    }
    assert {f["estado"]: f["valor_actual"] for f in r["rp_por_estado"]}["expedido"] == D(
        "500000.00"
    )
    with pytest.raises(FiltroInvalido):
        selectors.resumen_area(datos["oap_user"], "GTH")


def test_resumen_area_with_an_ambiguous_text_names_the_options(datos):
    with pytest.raises(FiltroInvalido) as error:
        selectors.resumen_area(datos["todas"], "oficina")
    assert error.value.opciones == ["OAP", "OTI"]


def test_paa_of_a_month(datos):
    r = selectors.paa_mes(datos["todas"], MARZO)
    assert r["mes"] == "2026-03"
    assert (r["cantidad"], r["valor_total"]) == (2, D("700000.00"))
    assert {f["estado"]: f["cantidad"] for f in r["por_estado"]} == {
        "borrador": 1,
        "en_revision": 0,
        "aprobada": 0,
        "en_ejecucion": 1,
        "ejecutada": 0,
        "anulada": 1,
    }
    assert [(a["sigla"], a["cantidad"], a["valor"]) for a in r["por_area"]] == [
        ("OAP", 2, D("700000.00"))
    ]
    assert [(m["valor_estimado"], m["estado"], m["area"]) for m in r["mayores"]] == [
        (D("600000.00"), "en_ejecucion", "OAP"),
        (D("100000.00"), "borrador", "OAP"),
    ]


def test_paa_of_a_month_filtered_and_restricted(datos):
    assert (
        selectors.paa_mes(datos["todas"], datetime.date(2026, 4, 15), area="OTI")["cantidad"] == 1
    )
    assert selectors.paa_mes(datos["oap_user"], datetime.date(2026, 4, 1))["cantidad"] == 0
    assert selectors.paa_mes(datos["todas"], datetime.date(2026, 6, 1))["valor_total"] == D("0")


@pytest.mark.parametrize(
    ("disponible", "asignado", "color"),
    [
        ("30", "100", "verde"),
        ("100", "100", "verde"),
        ("29.99", "100", "amarillo"),
        ("10", "100", "amarillo"),
        ("9.99", "100", "rojo"),
        ("0", "100", "rojo"),
        ("0", "0", "rojo"),
    ],
)
def test_traffic_light_thresholds(disponible, asignado, color):
    assert semaforo(D(disponible), D(asignado)) == color


def _consultas(funcion) -> int:
    with CaptureQueriesContext(connection) as capturadas:
        funcion()
    return len(capturadas)


def _crecer(datos):
    """Much more data of every kind, in more projects and areas."""
    otra = AreaFactory(sigla="DG", nombre="Dirección General")
    for n in range(4):
        proyecto = ProyectoFactory(vigencia=datos["vigencia"], codigo=f"2026-1{n}")
        for area in (datos["oap"], otra):
            services.asignar(proyecto=proyecto, area=area, valor="100000")
            linea(proyecto, area, "1000", mes=MARZO)
            cdp = cdp_expedido(proyecto, area, "5000")
            rp_expedido(cdp, "100")
            rp_expedido(cdp, "200")


@pytest.mark.parametrize(
    "llamada",
    [
        lambda u: selectors.tablero(u),
        lambda u: selectors.tablero(u, proyecto="2026", area="OAP"),
        lambda u: selectors.tablero(u, proyecto="2026-001", detalle=True),
        lambda u: selectors.resumen_area(u, "OAP"),
        lambda u: selectors.paa_mes(u, MARZO),
        lambda u: selectors.paa_mes(u, MARZO, area="OAP"),
    ],
)
@pytest.mark.parametrize("quien", ["todas", "oap_user"])
def test_query_count_does_not_grow_with_data(datos, llamada, quien):
    from apps.cuentas.models import User

    def fresco():
        # A fresh user object: Django's permission cache would otherwise hide queries.
        return User.objects.get(pk=datos[quien].pk)

    usuario = fresco()
    antes = _consultas(lambda: llamada(usuario))
    _crecer(datos)
    usuario = fresco()
    assert _consultas(lambda: llamada(usuario)) == antes


def test_dashboard_query_budget(datos, django_assert_num_queries):
    from apps.cuentas.models import User

    usuario = User.objects.get(pk=datos["todas"].pk)
    # vigencia + permissions (user, groups) + the figures: on PostgreSQL one read of the cells
    # kept on write; elsewhere assignments + lines + CDP + RP.
    figuras = 1 if connection.vendor == "postgresql" else 4
    with django_assert_num_queries(3 + figuras):
        selectors.tablero(usuario)
    usuario = User.objects.get(pk=datos["oap_user"].pk)
    with django_assert_num_queries(3 + figuras):
        selectors.tablero(usuario)
