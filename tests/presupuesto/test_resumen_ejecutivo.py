"""resumen_ejecutivo: one area's budget situation, or the PAA lines starting in a month, with
exact figures, visibility by area, the default month in Bogotá, and a fixed cost."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto import services
from apps.presupuesto.models import Vigencia
from tests.factories import AreaFactory
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.presupuesto.factories import (
    MARZO,
    ProyectoFactory,
    VigenciaFactory,
    cdp_expedido,
    cdp_solicitado,
    linea,
    rp_expedido,
)
from tests.presupuesto.mundos import CIFRAS, persona

pytestmark = pytest.mark.django_db

REPORTES = "presupuesto.reportes.consultar"
PLANEACION = "presupuesto.planeacion.consultar"
TODAS = "presupuesto.areas.todas"
ABRIL = datetime.date(2026, 4, 1)
CAMPOS_AREA = {
    "ambito",
    "vigencia",
    "area",
    *CIFRAS,
    "lineas_paa",
    "lineas_paa_total",
    "por_proyecto",
    "cdp_por_estado",
    "rp_por_estado",
    "umbrales_semaforo",
}
CAMPOS_MES = {
    "ambito",
    "mes",
    "filtros",
    "cantidad",
    "valor_total",
    "por_estado",
    "por_area",
    "mayores",
}


@pytest.fixture
def mundo():
    """OAP and OTI lines in March 2026 (6 live, 1 annulled in GTH), one OAP line in April."""
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de Tecnologías de la Información")
    gth = AreaFactory(sigla="GTH", nombre="Grupo de Talento Humano")
    proyecto = ProyectoFactory(vigencia=vigencia, codigo="2026-001", nombre="Fortalecimiento")
    for area, valor in [(oap, "2000000.00"), (oti, "1000000.00"), (gth, "500000.00")]:
        services.asignar(proyecto=proyecto, area=area, valor=valor)
    a = linea(proyecto, oap, "600000.10", mes=MARZO, objeto="Consultoría\u200b del plan")
    linea(proyecto, oap, "100000.00", mes=MARZO, estado="borrador", objeto="Talleres")
    linea(proyecto, oti, "1200000.00", mes=MARZO, estado="en_revision", objeto="Servidores")
    linea(proyecto, gth, "300000.00", mes=MARZO, estado="anulada", objeto="Capacitación")
    linea(proyecto, oti, "50000.00", mes=MARZO, objeto="Licencias")
    linea(proyecto, oap, "10000.00", mes=MARZO, objeto="Papelería")
    linea(proyecto, oap, "20000.00", mes=MARZO, objeto="Transporte")
    linea(proyecto, oap, "999999.00", mes=ABRIL, objeto="Auditoría externa")
    cdp = services.expedir_cdp(
        cdp=services.solicitar_cdp(linea_paa=a, objeto="Consultoría", valor="500000.00")
    )
    rp_expedido(cdp, "300000.00")
    cdp_expedido(proyecto, oap, "250000.25")
    cdp_solicitado(proyecto, oap, "1000.00")
    cdp_expedido(proyecto, oti, "400000.00")
    return {
        "vigencia": vigencia,
        "oap": oap,
        "oti": oti,
        "gth": gth,
        "proyecto": proyecto,
        "todas": persona(REPORTES, TODAS),
        "duena": persona(REPORTES, areas=[oap]),
        "extrano": persona(PLANEACION, areas=[gth]),
    }


def _resumen(client, cabeceras, **argumentos):
    return llamar(client, "resumen_ejecutivo", argumentos, **cabeceras)


_valida = validador("resumen_ejecutivo", decimales=True)


def _por_estado(filas: list[dict], valor: str = "valor") -> dict[str, tuple[int, str]]:
    return {f["estado"]: (f["cantidad"], str(f[valor])) for f in filas if f["cantidad"]}


# --- ambito = area --------------------------------------------------------------------------


def test_an_area_summary_has_exact_figures(client, mundo):
    datos = _valida(_resumen(client, mundo["todas"], ambito="area", area="OAP"))
    assert set(datos) == CAMPOS_AREA
    assert datos["ambito"] == "area" and datos["vigencia"] == 2026
    assert datos["area"] == {
        "id": mundo["oap"].pk,
        "sigla": "OAP",
        "nombre": "Oficina Asesora de Planeación",
    }
    cifras = {c: str(datos[c]) for c in CIFRAS if c != "semaforo"}
    assert cifras == {
        "asignado": "2000000.00",
        "programado": "1629999.10",
        "certificado": "750000.25",
        "comprometido": "300000.00",
        "obligado": "0.00",
        "disponible": "1249999.75",
        "porcentaje_disponible": "62.50",
        "avance": "15.00",
    }
    assert datos["semaforo"] == "verde"
    assert _por_estado(datos["lineas_paa"]) == {
        "borrador": (1, "100000.00"),
        "aprobada": (3, "1029999.00"),
        "en_ejecucion": (1, "600000.10"),
    }
    assert datos["lineas_paa_total"] == {"cantidad": 5, "valor": Decimal("1729999.10")}
    assert _por_estado(datos["cdp_por_estado"], "valor_actual") == {
        "solicitado": (1, "1000.00"),
        "expedido": (2, "750000.25"),
    }
    assert _por_estado(datos["rp_por_estado"], "valor_actual") == {"expedido": (1, "300000.00")}
    assert [p["codigo"] for p in datos["por_proyecto"]] == ["2026-001"]


def test_an_area_summary_reads_for_a_person(client, mundo):
    texto = _resumen(client, mundo["todas"], ambito="area", area="oap").resultado["content"][0][
        "text"
    ]
    assert texto.startswith(
        "Situación presupuestal de OAP — Oficina Asesora de Planeación (vigencia 2026): "
        "asignado $ 2.000.000,00;"
    )
    assert "disponible $ 1.249.999,75 (62,50 % de lo asignado, semáforo verde)" in texto
    assert "CDP: 1 solicitado ($ 1.000,00), 2 expedido ($ 750.000,25)." in texto


def test_the_area_may_be_given_by_id_or_part_of_its_name(client, mundo):
    por_id = _valida(_resumen(client, mundo["todas"], ambito="area", area=str(mundo["oti"].pk)))
    por_nombre = _valida(_resumen(client, mundo["todas"], ambito="area", area="tecnologias"))
    assert por_id["area"]["sigla"] == por_nombre["area"]["sigla"] == "OTI"


def test_an_ambiguous_area_lists_the_options(client, mundo):
    error = error_herramienta(
        _resumen(client, mundo["todas"], ambito="area", area="Oficina"), "DATOS_INVALIDOS"
    )
    assert error["opciones"] == ["OAP", "OTI"]
    assert list(error["campos"]) == ["area"]
    assert "OAP, OTI" in error["mensaje"]


def test_the_area_owner_gets_their_area(client, mundo):
    datos = _valida(_resumen(client, mundo["duena"], ambito="area", area="OAP"))
    assert str(datos["certificado"]) == "750000.25"


def test_an_outsider_asking_for_another_area_gets_the_same_answer_as_for_a_missing_one(
    client, mundo
):
    ajena = error_herramienta(
        _resumen(client, mundo["extrano"], ambito="area", area="OAP"), "DATOS_INVALIDOS"
    )
    falta = error_herramienta(
        _resumen(client, mundo["extrano"], ambito="area", area="QQQ"), "DATOS_INVALIDOS"
    )
    assert ajena["mensaje"].replace("OAP", "?") == falta["mensaje"].replace("QQQ", "?")
    assert _valida(_resumen(client, mundo["extrano"], ambito="area", area="GTH"))["area"][
        "sigla"
    ] == ("GTH")


def test_the_area_is_required_with_ambito_area(client, mundo):
    error = error_herramienta(_resumen(client, mundo["todas"], ambito="area"), "DATOS_INVALIDOS")
    assert list(error["campos"]) == ["area"]


def test_the_month_is_refused_with_ambito_area(client, mundo):
    error = error_herramienta(
        _resumen(client, mundo["todas"], ambito="area", area="OAP", mes="2026-03"),
        "DATOS_INVALIDOS",
    )
    assert list(error["campos"]) == ["mes"]


def test_an_area_summary_without_an_active_vigencia_is_no_encontrado(client, mundo):
    Vigencia.objects.update(activa=False)
    error = error_herramienta(
        _resumen(client, mundo["todas"], ambito="area", area="OAP"), "NO_ENCONTRADO"
    )
    assert "vigencia" in error["mensaje"]


# --- ambito = paa_mes -----------------------------------------------------------------------


def test_a_month_summary_has_exact_figures(client, mundo):
    datos = _valida(_resumen(client, mundo["todas"], ambito="paa_mes", mes="2026-03"))
    assert set(datos) == CAMPOS_MES
    assert datos["ambito"] == "paa_mes" and datos["mes"] == "2026-03"
    assert datos["filtros"] == {"areas": None}
    assert datos["cantidad"] == 6  # the annulled line is left out
    assert str(datos["valor_total"]) == "1980000.10"
    assert _por_estado(datos["por_estado"]) == {
        "borrador": (1, "100000.00"),
        "en_revision": (1, "1200000.00"),
        "aprobada": (3, "80000.00"),
        "en_ejecucion": (1, "600000.10"),
        "anulada": (1, "300000.00"),
    }
    assert [(a["sigla"], a["cantidad"], str(a["valor"])) for a in datos["por_area"]] == [
        ("OAP", 4, "730000.10"),
        ("OTI", 2, "1250000.00"),
    ]
    mayores = datos["mayores"]
    assert [(m["area"], str(m["valor_estimado"])) for m in mayores] == [
        ("OTI", "1200000.00"),
        ("OAP", "600000.10"),
        ("OAP", "100000.00"),
        ("OTI", "50000.00"),
        ("OAP", "20000.00"),
    ]
    assert mayores[1]["objeto"] == "Consultoría del plan"  # invisible character removed
    assert mayores[1]["estado"] == "en_ejecucion" and mayores[1]["mes_inicio"] == "2026-03"
    assert mayores[1]["modalidad"] == "Contratación directa"
    assert mayores[1]["proyecto"] == "2026-001" and mayores[1]["vigencia"] == 2026


def test_a_month_summary_reads_for_a_person(client, mundo):
    texto = _resumen(client, mundo["todas"], ambito="paa_mes", mes="2026-03").resultado["content"][
        0
    ]["text"]
    assert texto.startswith(
        "Líneas del PAA con inicio estimado en marzo de 2026 (áreas que usted puede ver): "
        "6 por $ 1.980.000,10 (sin anuladas)"
    )
    assert "Por área: OAP 4 por $ 730.000,10; OTI 2 por $ 1.250.000,00." in texto
    assert "línea 3 «Servidores» $ 1.200.000,00 (OTI, en revisión)" in texto


def test_a_month_summary_filtered_by_area(client, mundo):
    datos = _valida(_resumen(client, mundo["todas"], ambito="paa_mes", mes="2026-03", area="OTI"))
    assert [a["sigla"] for a in datos["filtros"]["areas"]] == ["OTI"]
    assert datos["cantidad"] == 2 and str(datos["valor_total"]) == "1250000.00"


def test_the_area_owner_sees_only_their_lines_of_the_month(client, mundo):
    datos = _valida(_resumen(client, mundo["duena"], ambito="paa_mes", mes="2026-03"))
    assert datos["cantidad"] == 4 and str(datos["valor_total"]) == "730000.10"
    assert {m["area"] for m in datos["mayores"]} == {"OAP"}


def test_an_outsider_sees_no_lines_of_other_areas(client, mundo):
    datos = _valida(_resumen(client, mundo["extrano"], ambito="paa_mes", mes="2026-03"))
    assert datos["cantidad"] == 0 and datos["mayores"] == [] and datos["por_area"] == []
    assert _por_estado(datos["por_estado"]) == {"anulada": (1, "300000.00")}
    ajena = error_herramienta(
        _resumen(client, mundo["extrano"], ambito="paa_mes", mes="2026-03", area="OAP"),
        "DATOS_INVALIDOS",
    )
    assert list(ajena["campos"]) == ["area"]


def test_an_empty_month_says_none(client, mundo):
    r = _resumen(client, mundo["todas"], ambito="paa_mes", mes="2026-07")
    datos = _valida(r)
    assert datos["cantidad"] == 0 and str(datos["valor_total"]) == "0.00"
    assert r.resultado["content"][0]["text"].endswith(
        "julio de 2026 (áreas que usted puede ver): ninguna."
    )


def test_the_month_defaults_to_the_current_month_in_bogota(client, mundo, monkeypatch):
    # 03:00 UTC on 1 April is still 31 March, 22:00, in Bogotá.
    instante = datetime.datetime(2026, 4, 1, 3, 0, tzinfo=datetime.UTC)
    monkeypatch.setattr("django.utils.timezone.now", lambda: instante)
    datos = _valida(_resumen(client, mundo["todas"], ambito="paa_mes"))
    assert datos["mes"] == "2026-03" and datos["cantidad"] == 6


# --- access ---------------------------------------------------------------------------------


@pytest.mark.parametrize("permiso", [REPORTES, PLANEACION])
def test_either_permission_is_enough(client, mundo, permiso):
    cabeceras = persona(permiso, areas=[mundo["oap"]])
    _valida(_resumen(client, cabeceras, ambito="area", area="OAP"))


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    error_herramienta(_resumen(client, clave, ambito="paa_mes"), "SIN_IDENTIDAD")


def test_without_either_permission_the_answer_is_sin_permiso(client, mundo):
    cabeceras = persona("presupuesto.reportes.personalizados", TODAS)
    error_herramienta(_resumen(client, cabeceras, ambito="paa_mes"), "SIN_PERMISO")
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "resumen_ejecutivo" not in nombres


def test_tools_list_publishes_the_arguments(client, mundo):
    herramientas = rpc(client, "tools/list", **mundo["duena"]).resultado["tools"]
    tool = next(t for t in herramientas if t["name"] == "resumen_ejecutivo")
    assert tool["annotations"]["readOnlyHint"] is True
    esquema = tool["inputSchema"]
    assert esquema["required"] == ["ambito"]
    assert esquema["properties"]["ambito"]["enum"] == ["area", "paa_mes"]
    assert esquema["properties"]["area"]["maxLength"] == 100
    assert esquema["properties"]["mes"]["pattern"] == r"^(20\d{2}|2100)-(0[1-9]|1[0-2])$"
    assert esquema["additionalProperties"] is False


# --- argument bounds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({}, "ambito"),
        ({"ambito": "anual"}, "ambito"),
        ({"ambito": "paa_mes", "mes": "2026-3"}, "mes"),
        ({"ambito": "paa_mes", "mes": "2026-003"}, "mes"),
        ({"ambito": "paa_mes", "mes": "2026-13"}, "mes"),
        ({"ambito": "paa_mes", "mes": "2026-00"}, "mes"),
        ({"ambito": "paa_mes", "mes": "0000-01"}, "mes"),
        ({"ambito": "paa_mes", "mes": "1999-12"}, "mes"),
        ({"ambito": "paa_mes", "mes": "2101-01"}, "mes"),
        ({"ambito": "paa_mes", "mes": "marzo-1"}, "mes"),
        ({"ambito": "paa_mes", "mes": 202603}, "mes"),
        ({"ambito": "paa_mes", "area": ""}, "area"),
        ({"ambito": "paa_mes", "area": "a" * 101}, "area"),
        ({"ambito": "area", "area": "a" * 101}, "area"),
        ({"ambito": "paa_mes", "limite": 3}, "limite"),
    ],
    ids=[
        "sin-ambito",
        "ambito-desconocido",
        "mes-6",
        "mes-8",
        "mes-13",
        "mes-00",
        "anio-0",
        "antes-de-2000",
        "despues-de-2100",
        "mes-texto",
        "mes-numero",
        "area-vacia",
        "area-101",
        "area-101-ambito-area",
        "desconocido",
    ],
)
def test_invalid_arguments_are_datos_invalidos(client, mundo, argumentos, campo):
    error = error_herramienta(_resumen(client, mundo["todas"], **argumentos), "DATOS_INVALIDOS")
    assert list(error["campos"]) == [campo]


def test_values_at_the_bounds_are_accepted(client, mundo):
    area = AreaFactory(sigla="LARGA", nombre="Á" * 100)
    services.asignar(proyecto=mundo["proyecto"], area=area, valor="10.00")
    assert _valida(_resumen(client, mundo["todas"], ambito="area", area="á" * 100))["area"][
        "sigla"
    ] == ("LARGA")
    assert _valida(_resumen(client, mundo["todas"], ambito="paa_mes", mes="2100-12"))["mes"] == (
        "2100-12"
    )
    assert _valida(_resumen(client, mundo["todas"], ambito="paa_mes", mes="2000-01"))["mes"] == (
        "2000-01"
    )


# --- cost -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [
        {"ambito": "area", "area": "OAP"},
        {"ambito": "paa_mes", "mes": "2026-03"},
        {"ambito": "paa_mes", "mes": "2026-03", "area": "OTI"},
    ],
    ids=["area", "paa_mes", "paa_mes-area"],
)
def test_the_query_count_does_not_grow_with_the_data(
    client, mundo, argumentos, django_assert_num_queries
):
    cabeceras = mundo["todas"]
    _resumen(client, cabeceras, **argumentos)
    with CaptureQueriesContext(connection) as antes:
        _resumen(client, cabeceras, **argumentos)
    for i in range(5):
        area = AreaFactory()
        proyecto = ProyectoFactory(vigencia=mundo["vigencia"], codigo=f"2026-2{i}")
        services.asignar(proyecto=proyecto, area=mundo["oap"], valor="1000.00")
        services.asignar(proyecto=proyecto, area=area, valor="1000.00")
        linea(proyecto, area, "10.00", mes=MARZO)
        linea(proyecto, mundo["oti"], "10.00", mes=MARZO)
        rp_expedido(cdp_expedido(proyecto, mundo["oap"], "100.00"), "50.00")
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _resumen(client, cabeceras, **argumentos)
    assert r.resultado["isError"] is False
