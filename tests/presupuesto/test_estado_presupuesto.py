"""estado_presupuesto: the dashboard of the active vigencia with exact figures on a known dataset,
traffic lights, filters, detail of one project, visibility, and a fixed cost."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto import services
from apps.presupuesto.models import Vigencia
from tests.factories import AreaFactory
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.presupuesto import mundos
from tests.presupuesto.factories import (
    ActividadFactory,
    ProyectoFactory,
    cdp_expedido,
    linea,
    rp_expedido,
)
from tests.presupuesto.mundos import CIFRAS, persona

pytestmark = pytest.mark.django_db

REPORTES = "presupuesto.reportes.consultar"
TODAS = "presupuesto.areas.todas"
CAMPOS = {
    "vigencia",
    "todas_las_areas",
    "filtros",
    "tope",
    "sin_asignar",
    *CIFRAS,
    "lineas_paa",
    "lineas_paa_total",
    "por_proyecto",
    "por_area",
    "umbrales_semaforo",
    "detalle",
    "aviso_detalle",
}


@pytest.fixture
def mundo():
    """The dashboard's world (tests/presupuesto/mundos.py), to the cent: OAP amarillo, OTI rojo,
    GTH verde; verde overall. Certified 2.699.999,65; obligated 200.000,10."""
    mundo = mundos.mundo_tablero(nombre_p2="Transformación\u200b digital")
    return {
        **mundo,
        "todas": persona(REPORTES, TODAS),
        "duena": persona(REPORTES, areas=[mundo["oap"]]),
        "extrano": persona(REPORTES, areas=[mundo["gth"]]),
    }


def _tablero(client, cabeceras, **argumentos):
    return llamar(client, "estado_presupuesto", argumentos, **cabeceras)


_valida = validador("estado_presupuesto", decimales=True)


def _cifras(fila: dict) -> dict[str, str]:
    """The figures of a row as exact strings (a Decimal's digits, as sent)."""
    return {c: str(fila[c]) for c in CIFRAS}


# --- figures --------------------------------------------------------------------------------


def test_who_sees_every_area_gets_the_whole_vigencia_with_exact_figures(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"]))
    assert set(datos) == CAMPOS
    assert datos["vigencia"] == 2026 and datos["todas_las_areas"] is True
    assert datos["filtros"] == {"proyectos": None, "areas": None}
    assert str(datos["tope"]) == "10000000.00"
    assert str(datos["sin_asignar"]) == "6000000.00"
    assert _cifras(datos) == {
        "asignado": "4000000.00",
        "programado": "1800000.00",
        "certificado": "2699999.65",
        "comprometido": "1900000.00",
        "obligado": "200000.10",
        "disponible": "1300000.35",
        "porcentaje_disponible": "32.50",
        "avance": "47.50",
        "semaforo": "verde",
    }
    assert datos["detalle"] is None and datos["aviso_detalle"] is None
    assert {k: str(v) for k, v in datos["umbrales_semaforo"].items()} == {
        "verde": "30",
        "amarillo": "10",
    }


def test_traffic_lights_by_area_and_by_project(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"]))
    por_area = {a["sigla"]: a for a in datos["por_area"]}
    assert [a["sigla"] for a in datos["por_area"]] == ["GTH", "OAP", "OTI"]
    assert _cifras(por_area["OAP"]) == {
        "asignado": "1000000.00",
        "programado": "600000.00",
        "certificado": "800000.00",
        "comprometido": "500000.00",
        "obligado": "200000.10",
        "disponible": "200000.00",
        "porcentaje_disponible": "20.00",
        "avance": "50.00",
        "semaforo": "amarillo",
    }
    assert _cifras(por_area["OTI"])["disponible"] == "100000.35"
    assert _cifras(por_area["OTI"])["porcentaje_disponible"] == "5.00"
    assert por_area["OTI"]["semaforo"] == "rojo"
    assert por_area["GTH"]["semaforo"] == "verde"
    assert str(por_area["GTH"]["porcentaje_disponible"]) == "100.00"
    assert por_area["OAP"]["nombre"] == "Oficina Asesora de Planeación"
    assert por_area["OAP"]["id"] == mundo["oap"].pk
    por_proyecto = {p["codigo"]: p for p in datos["por_proyecto"]}
    assert _cifras(por_proyecto["2026-001"])["disponible"] == "200000.35"
    assert _cifras(por_proyecto["2026-001"])["porcentaje_disponible"] == "13.33"
    assert por_proyecto["2026-001"]["semaforo"] == "amarillo"
    assert por_proyecto["2026-002"]["semaforo"] == "verde"
    assert por_proyecto["2026-002"]["nombre"] == "Transformación digital"  # invisible removed


def test_paa_lines_by_status(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"]))
    lineas = {f["estado"]: (f["cantidad"], str(f["valor"])) for f in datos["lineas_paa"]}
    assert lineas == {
        "borrador": (1, "100000.00"),
        "en_revision": (1, "200000.00"),
        "aprobada": (0, "0.00"),
        "en_ejecucion": (2, "1800000.00"),
        "ejecutada": (0, "0.00"),
        "anulada": (1, "300000.00"),
    }
    assert datos["lineas_paa_total"]["cantidad"] == 4
    assert str(datos["lineas_paa_total"]["valor"]) == "2100000.00"


def test_the_summary_reads_for_a_person(client, mundo):
    resumen = _tablero(client, mundo["todas"]).resultado["content"][0]["text"]
    assert resumen.startswith("Presupuesto de la vigencia 2026 (todas las áreas): tope ")
    assert "tope $ 10.000.000,00 (sin asignar $ 6.000.000,00)" in resumen
    assert "disponible $ 1.300.000,35 (32,50 % de lo asignado, semáforo verde)" in resumen
    assert "avance 47,50 %" in resumen
    assert "OTI: disponible $ 100.000,35 (5,00 % de lo asignado, semáforo rojo)" in resumen
    assert "Líneas del PAA: 4 por $ 2.100.000,00" in resumen
    assert "\u200b" not in resumen


def test_an_area_owner_sees_only_their_area(client, mundo):
    datos = _valida(_tablero(client, mundo["duena"]))
    assert datos["todas_las_areas"] is False
    assert [a["sigla"] for a in datos["por_area"]] == ["OAP"]
    assert [p["codigo"] for p in datos["por_proyecto"]] == ["2026-001"]
    # A partial view's ceiling is what was assigned to it; nothing is "unassigned" there.
    assert str(datos["tope"]) == "1000000.00" and datos["sin_asignar"] is None
    assert _cifras(datos)["certificado"] == "800000.00"
    assert datos["lineas_paa_total"] == {"cantidad": 2, "valor": Decimal("700000.00")}
    resumen = _tablero(client, mundo["duena"]).resultado["content"][0]["text"]
    assert "solo las áreas que usted puede ver" in resumen and "OTI" not in resumen


# --- filters --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "texto", ["2026-001", "fortalecimiento", "FORTALECIMIENTO institucional"], ids=str
)
def test_the_project_filter_takes_a_code_or_part_of_the_name(client, mundo, texto):
    datos = _valida(_tablero(client, mundo["todas"], proyecto=texto))
    assert datos["filtros"]["proyectos"] == [
        {
            "id": mundo["p1"].pk,
            "codigo": "2026-001",
            "nombre": "Fortalecimiento institucional",
            "activo": True,
        }
    ]
    assert _cifras(datos)["asignado"] == "1500000.00"
    assert _cifras(datos)["certificado"] == "1299999.65"
    assert str(datos["tope"]) == "1500000.00" and datos["sin_asignar"] is None


def test_the_project_filter_takes_an_id(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], proyecto=str(mundo["p2"].pk)))
    assert [p["codigo"] for p in datos["filtros"]["proyectos"]] == ["2026-002"]


@pytest.mark.parametrize("texto", ["oti", "Tecnologias", "tecnologías información"], ids=str)
def test_the_area_filter_takes_an_abbreviation_or_part_of_the_name(client, mundo, texto):
    datos = _valida(_tablero(client, mundo["todas"], area=texto))
    assert [a["sigla"] for a in datos["filtros"]["areas"]] == ["OTI"]
    assert _cifras(datos)["asignado"] == "2000000.00"
    assert datos["semaforo"] == "rojo"


def test_both_filters_together(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], proyecto="2026-002", area="OTI"))
    assert _cifras(datos)["asignado"] == "1500000.00"
    assert _cifras(datos)["certificado"] == "1400000.00"
    resumen = _tablero(client, mundo["todas"], proyecto="2026-002", area="OTI").resultado[
        "content"
    ][0]["text"]
    assert "filtrado por proyecto 2026-002 y área OTI" in resumen


def test_a_filter_matching_nothing_is_datos_invalidos(client, mundo):
    error = error_herramienta(
        _tablero(client, mundo["todas"], proyecto="inexistente"), "DATOS_INVALIDOS"
    )
    assert list(error["campos"]) == ["proyecto"]
    error = error_herramienta(_tablero(client, mundo["todas"], area="XYZ"), "DATOS_INVALIDOS")
    assert list(error["campos"]) == ["area"]


def test_an_outsider_filtering_by_another_area_gets_the_same_answer_as_a_missing_one(client, mundo):
    ajena = error_herramienta(_tablero(client, mundo["extrano"], area="OAP"), "DATOS_INVALIDOS")
    inexistente = error_herramienta(
        _tablero(client, mundo["extrano"], area="ZZZ"), "DATOS_INVALIDOS"
    )
    assert ajena["campos"]["area"][0].replace("OAP", "?") == inexistente["campos"]["area"][
        0
    ].replace("ZZZ", "?")
    # The project of another area is invisible as well.
    error_herramienta(_tablero(client, mundo["extrano"], proyecto="2026-001"), "DATOS_INVALIDOS")
    datos = _valida(_tablero(client, mundo["extrano"]))
    assert [a["sigla"] for a in datos["por_area"]] == ["GTH"]


# --- detail ---------------------------------------------------------------------------------


def test_detail_of_one_project_adds_activities_and_areas(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], proyecto="2026-002", detalle=True))
    detalle = datos["detalle"]
    assert detalle["proyecto"]["codigo"] == "2026-002"
    assert detalle["actividades"] == [
        {
            "id": mundo["actividad"].pk,
            "codigo": "ACT-1",
            "nombre": "Nube y servidores",
            "activa": True,
            "lineas_paa": 1,
            "programado": Decimal("1200000.00"),
            "certificado": Decimal("1400000.00"),
        }
    ]
    assert [a["sigla"] for a in detalle["por_area"]] == ["GTH", "OTI"]
    assert datos["aviso_detalle"] is None
    resumen = _tablero(client, mundo["todas"], proyecto="2026-002", detalle=True).resultado[
        "content"
    ][0]["text"]
    assert "Actividades de 2026-002: ACT-1 Nube y servidores: programado $ 1.200.000,00" in resumen


def test_detail_with_several_matching_projects_says_so(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], proyecto="2026", detalle=True))
    assert datos["detalle"] is None
    assert "coincide con varios (2026-001, 2026-002)" in datos["aviso_detalle"]
    assert len(datos["por_proyecto"]) == 2  # the dashboard of both still comes


def test_detail_without_a_project_says_what_is_missing(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], detalle=True))
    assert datos["detalle"] is None
    assert "indique proyecto" in datos["aviso_detalle"]


def test_detalle_defaults_to_false(client, mundo):
    datos = _valida(_tablero(client, mundo["todas"], proyecto="2026-002"))
    assert datos["detalle"] is None and datos["aviso_detalle"] is None


# --- no vigencia, access --------------------------------------------------------------------


def test_without_an_active_vigencia_the_answer_is_no_encontrado(client, mundo):
    Vigencia.objects.update(activa=False)
    error = error_herramienta(_tablero(client, mundo["todas"]), "NO_ENCONTRADO")
    assert "vigencia" in error["mensaje"]


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    error_herramienta(_tablero(client, clave), "SIN_IDENTIDAD")


def test_without_the_permission_the_answer_is_sin_permiso(client, mundo):
    cabeceras = persona("presupuesto.planeacion.consultar", TODAS)
    error_herramienta(_tablero(client, cabeceras), "SIN_PERMISO")
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "estado_presupuesto" not in nombres


def test_tools_list_shows_it_read_only(client, mundo):
    herramientas = rpc(client, "tools/list", **mundo["duena"]).resultado["tools"]
    tool = next(t for t in herramientas if t["name"] == "estado_presupuesto")
    assert tool["annotations"]["readOnlyHint"] is True
    propiedades = tool["inputSchema"]["properties"]
    assert propiedades["proyecto"]["maxLength"] == 100 and propiedades["area"]["maxLength"] == 100
    assert propiedades["detalle"]["default"] is False
    assert "required" not in tool["inputSchema"]


# --- argument bounds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [
        {"proyecto": ""},
        {"proyecto": "p" * 101},
        {"area": ""},
        {"area": "a" * 101},
        {"detalle": "si"},
        {"proyecto": 2026},
        {"vigencia": 2025},
    ],
    ids=["proyecto-vacio", "proyecto-101", "area-vacia", "area-101", "detalle", "no-texto", "otro"],
)
def test_invalid_arguments_are_datos_invalidos(client, mundo, argumentos):
    error = error_herramienta(_tablero(client, mundo["todas"], **argumentos), "DATOS_INVALIDOS")
    assert set(error["campos"]) == set(argumentos)
    assert "coincide" not in error["mensaje"]  # refused by the validation, not by the search


def test_filters_at_the_length_bound_are_accepted(client, mundo):
    largo = "Proyecto de nombre largo " + "x" * 75
    assert len(largo) == 100
    ProyectoFactory(vigencia=mundo["vigencia"], codigo="2026-099", nombre=largo)
    area = AreaFactory(sigla="LARGA", nombre="Á" * 100)
    services.asignar(proyecto=mundo["p1"], area=area, valor="10.00")
    datos = _valida(_tablero(client, mundo["todas"], proyecto=largo))
    assert [p["codigo"] for p in datos["filtros"]["proyectos"]] == ["2026-099"]
    datos = _valida(_tablero(client, mundo["todas"], area="Á" * 100))
    assert [a["sigla"] for a in datos["filtros"]["areas"]] == ["LARGA"]


# --- cost -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [{}, {"proyecto": "2026-002", "detalle": True}, {"area": "OTI", "proyecto": "digital"}],
    ids=["todo", "detalle", "filtros"],
)
def test_the_query_count_does_not_grow_with_the_data(
    client, mundo, argumentos, django_assert_num_queries
):
    cabeceras = mundo["todas"]
    _tablero(client, cabeceras, **argumentos)
    with CaptureQueriesContext(connection) as antes:
        _tablero(client, cabeceras, **argumentos)
    otra = AreaFactory(sigla="NUE", nombre="Área nueva")
    for i in range(4):
        proyecto = ProyectoFactory(vigencia=mundo["vigencia"], codigo=f"2026-1{i}")
        services.asignar(proyecto=proyecto, area=otra, valor="1000.00")
        cdp_expedido(proyecto, otra, "100.00")
        services.asignar(proyecto=mundo["p2"], area=AreaFactory(), valor="1000.00")
        rp_expedido(cdp_expedido(mundo["p2"], mundo["oti"], "1.00"), "1.00")
        linea(mundo["p2"], mundo["oti"], "5.00", actividad=ActividadFactory(proyecto=mundo["p2"]))
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _tablero(client, cabeceras, **argumentos)
    assert r.resultado["isError"] is False
