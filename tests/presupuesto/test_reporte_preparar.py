"""reporte_preparar: the ficha's schema comes from its serializer, every problem comes back with
its path, and a valid ficha gives the visible row count, a small sample and the builder link."""

from __future__ import annotations

import base64
import json
from decimal import Decimal

import jsonschema
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto import reportes
from hub.herramientas.registro import registro
from tests.factories import AreaFactory
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.presupuesto.factories import cdp_expedido, celda, linea, rp_expedido
from tests.presupuesto.mundos import persona

pytestmark = pytest.mark.django_db

PERSONALIZADOS = "presupuesto.reportes.personalizados"
TODAS = "presupuesto.areas.todas"
CAMPOS = {"peticion", "ficha", "fuente", "columnas", "total_filas", "muestra", "enlace", "url"}
PREFIJO = "/presupuesto/reportes/constructor?ficha="


@pytest.fixture
def mundo():
    """Three OAP CDPs (100,10 / 200,20 / 300,30) with RPs, one OTI CDP of 5.000,00, a PAA line."""
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de Tecnologías de la Información")
    proyecto, _ = celda("10000.00", area=oap)
    celda("10000.00", area=oti, proyecto=proyecto)
    for valor in ("100.10", "200.20", "300.30"):
        cdp = cdp_expedido(proyecto, oap, valor, objeto=f"Consultoría\u200b de planeación {valor}")
        rp_expedido(cdp, valor, beneficiario="Proveedora Andina S.A.S.")
    cdp_expedido(proyecto, oti, "5000.00", objeto="Licencias")
    linea(proyecto, oap, "50.00")
    return {
        "proyecto": proyecto,
        "oap": oap,
        "oti": oti,
        "todas": persona(PERSONALIZADOS, TODAS),
        "duena": persona(PERSONALIZADOS, areas=[oap]),
        "extrano": persona(PERSONALIZADOS, areas=[oti]),
    }


def _preparar(client, cabeceras, ficha, **otros):
    return llamar(client, "reporte_preparar", {"ficha": ficha, **otros}, **cabeceras)


_valida = validador("reporte_preparar", decimales=True)


def _ficha_del_enlace(enlace: str) -> dict:
    assert enlace.startswith(PREFIJO)
    codigo = enlace[len(PREFIJO) :]
    assert "=" not in codigo and "+" not in codigo and "/" not in codigo  # base64url, unpadded
    crudo = base64.urlsafe_b64decode(codigo + "=" * (-len(codigo) % 4))
    return json.loads(crudo, parse_float=Decimal)


CDP_GRANDES = {
    "fuente": "cdp",
    "titulo": "CDP grandes",
    "filtros": [{"campo": "valor_actual", "op": "gte", "valor": 200.2}],
    "formato": "csv",
}


# --- a valid ficha --------------------------------------------------------------------------


def test_a_valid_ficha_gives_count_sample_and_link(client, mundo):
    datos = _valida(
        _preparar(client, mundo["todas"], CDP_GRANDES, peticion="Los CDP\u200b de más de 200")
    )
    assert set(datos) == CAMPOS
    assert datos["peticion"] == "Los CDP de más de 200"
    assert datos["ficha"] == {
        "fuente": "cdp",
        "titulo": "CDP grandes",
        "formato": "csv",
        "filtros": [{"campo": "valor_actual", "op": "gte", "valor": Decimal("200.2")}],
    }
    assert datos["fuente"] == "Certificados de disponibilidad presupuestal (CDP)"
    assert datos["total_filas"] == 3  # 200,20, 300,30 and OTI's 5.000,00
    assert [c["campo"] for c in datos["columnas"]] == list(reportes.FUENTES["cdp"].campos)
    assert [str(f["valor_actual"]) for f in datos["muestra"]] == ["200.20", "300.30", "5000.00"]
    assert datos["muestra"][0]["objeto"] == "Consultoría de planeación 200.20"
    assert _ficha_del_enlace(datos["enlace"]) == datos["ficha"]


def test_the_sample_amounts_carry_exactly_the_stored_digits(client, mundo):
    r = _preparar(client, mundo["todas"], CDP_GRANDES)
    texto = r.resultado["content"][1]["text"]
    assert '"valor_actual":200.20' in texto and '"saldo":0.00' in texto
    assert '"valor":200.2' in texto  # the filter value as it was sent


def test_the_link_carries_the_canonical_json(client, mundo):
    datos = _valida(_preparar(client, mundo["todas"], CDP_GRANDES))
    codigo = datos["enlace"][len(PREFIJO) :]
    crudo = base64.urlsafe_b64decode(codigo + "=" * (-len(codigo) % 4)).decode()
    assert crudo == (
        '{"filtros":[{"campo":"valor_actual","op":"gte","valor":200.2}],"formato":"csv",'
        '"fuente":"cdp","titulo":"CDP grandes"}'
    )
    assert reportes.ficha_de_enlace(codigo).como_dict() == datos["ficha"]


def test_the_summary_reads_for_a_person_with_the_absolute_link(client, mundo, settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.gov.co"
    r = _preparar(client, mundo["todas"], CDP_GRANDES)
    datos = _valida(r)
    texto = r.resultado["content"][0]["text"]
    assert texto.startswith(
        "Reporte «CDP grandes» de Certificados de disponibilidad presupuestal (CDP) en CSV con "
        "los filtros: valor_actual ≥ $ 200,20. Filas que usted puede ver: 3."
    )
    assert (
        "Muestra: numero: CDP-2026-00002, area: OAP, estado: agotado, valor_actual: $ 200,20 |"
        in (texto)
    )
    assert PREFIJO in texto and "no se ha generado" in texto
    # The person clicks the address in the text: the absolute one, the same as `url`.
    assert datos["url"] == f"https://hub.entidad.gov.co{datos['enlace']}"
    assert datos["url"] in texto


def test_defaults_title_format_and_no_filters(client, mundo):
    r = _preparar(client, mundo["todas"], {"fuente": "paa"})
    assert r.resultado["content"][0]["text"].startswith(
        "Reporte de Líneas del Plan Anual de Adquisiciones (PAA) en Excel (xlsx) sin filtros. "
        "Filas que usted puede ver: 1."
    )
    datos = _valida(r)
    assert datos["ficha"] == {
        "fuente": "paa",
        "titulo": "Líneas del Plan Anual de Adquisiciones (PAA)",
        "formato": "xlsx",
        "filtros": [],
    }
    assert datos["peticion"] is None
    assert datos["total_filas"] == 1
    assert datos["muestra"][0]["mes_inicio"] == "2026-03-01"


def test_columns_and_order_shape_the_sample(client, mundo):
    ficha = {
        "fuente": "rp",
        "columnas": ["numero", "valor_actual", "beneficiario"],
        "orden": ["-valor_actual"],
        "filtros": [{"campo": "beneficiario", "op": "contiene", "valor": "andina"}],
    }
    datos = _valida(_preparar(client, mundo["todas"], ficha))
    assert [c["campo"] for c in datos["columnas"]] == ["numero", "valor_actual", "beneficiario"]
    assert [set(f) for f in datos["muestra"]] == [{"numero", "valor_actual", "beneficiario"}] * 3
    assert [str(f["valor_actual"]) for f in datos["muestra"]] == ["300.30", "200.20", "100.10"]
    assert datos["ficha"]["columnas"] == ["numero", "valor_actual", "beneficiario"]
    assert datos["ficha"]["orden"] == ["-valor_actual"]
    assert _ficha_del_enlace(datos["enlace"])["orden"] == ["-valor_actual"]


def test_the_beneficiarys_document_is_not_a_column(client, mundo):
    r = _preparar(client, mundo["todas"], {"fuente": "rp"})
    assert "900123456-7" not in r.http.content.decode()
    error = error_herramienta(
        _preparar(client, mundo["todas"], {"fuente": "rp", "columnas": ["documento_beneficiario"]}),
        "DATOS_INVALIDOS",
    )
    assert list(error["campos"]) == ["ficha.columnas.0"]


# --- who sees which rows --------------------------------------------------------------------


def test_the_area_owner_counts_and_sees_only_their_rows(client, mundo):
    datos = _valida(_preparar(client, mundo["duena"], CDP_GRANDES))
    assert datos["total_filas"] == 2
    assert {f["area"] for f in datos["muestra"]} == {"OAP"}


def test_an_outsider_counts_only_their_own_rows(client, mundo):
    datos = _valida(_preparar(client, mundo["extrano"], CDP_GRANDES))
    assert datos["total_filas"] == 1 and [f["area"] for f in datos["muestra"]] == ["OTI"]
    ficha = {**CDP_GRANDES, "filtros": [{"campo": "area", "valor": "OAP"}]}
    assert _valida(_preparar(client, mundo["extrano"], ficha))["total_filas"] == 0


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    error_herramienta(_preparar(client, clave, CDP_GRANDES), "SIN_IDENTIDAD")


def test_without_the_permission_the_answer_is_sin_permiso(client, mundo):
    cabeceras = persona("presupuesto.reportes.consultar", TODAS)
    error_herramienta(_preparar(client, cabeceras, CDP_GRANDES), "SIN_PERMISO")
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "reporte_preparar" not in nombres


# --- the published schema -------------------------------------------------------------------


def test_the_ficha_schema_is_derived_from_the_serializer_and_closed(client, mundo):
    herramientas = rpc(client, "tools/list", **mundo["duena"]).resultado["tools"]
    tool = next(t for t in herramientas if t["name"] == "reporte_preparar")
    assert tool["annotations"]["readOnlyHint"] is True
    esquema = tool["inputSchema"]
    assert esquema["required"] == ["ficha"] and esquema["additionalProperties"] is False
    assert esquema["properties"]["peticion"]["maxLength"] == 300
    ficha = esquema["properties"]["ficha"]
    assert ficha["type"] == "object" and ficha["additionalProperties"] is False
    assert ficha["required"] == ["fuente"]
    assert ficha["properties"]["fuente"]["enum"] == ["cdp", "rp", "paa"]
    assert ficha["properties"]["formato"] == {
        "type": "string",
        "enum": ["xlsx", "csv"],
        "description": "Formato del archivo.",
        "default": "xlsx",
    }
    assert ficha["properties"]["titulo"]["minLength"] == 3
    assert ficha["properties"]["titulo"]["maxLength"] == 150
    filtros = ficha["properties"]["filtros"]
    assert filtros["type"] == "array" and filtros["maxItems"] == 10
    filtro = filtros["items"]
    assert filtro["additionalProperties"] is False and filtro["required"] == ["campo", "valor"]
    assert "documento_beneficiario" not in filtro["properties"]["campo"]["enum"]
    assert set(filtro["properties"]["op"]["enum"]) == {
        "eq",
        "ne",
        "gt",
        "gte",
        "lt",
        "lte",
        "entre",
        "en",
        "contiene",
    }
    assert filtro["properties"]["valor"]["anyOf"][0] == {"type": ["string", "number"]}
    assert filtro["properties"]["valor"]["anyOf"][1]["maxItems"] == 50
    assert ficha["properties"]["orden"]["maxItems"] == 3
    jsonschema.Draft202012Validator.check_schema(esquema)


def test_the_published_schema_accepts_what_the_tool_accepts(client, mundo):
    esquema = registro.obtener("reporte_preparar").esquema_entrada
    buenos = [
        {"ficha": CDP_GRANDES},
        {
            "ficha": {
                "fuente": "cdp",
                "filtros": [{"campo": "estado", "op": "en", "valor": ["expedido", "agotado"]}],
            }
        },
        {
            "ficha": {
                "fuente": "paa",
                "filtros": [
                    {"campo": "mes_inicio", "op": "entre", "valor": ["2026-01-01", "2026-06-30"]}
                ],
            }
        },
    ]
    for argumentos in buenos:
        jsonschema.validate(argumentos, esquema)
        _valida(llamar(client, "reporte_preparar", argumentos, **mundo["todas"]))
    for malo in [
        {"ficha": {"fuente": "cdp", "x": 1}},
        {"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo", "valor": {"$gt": 1}}]}},
    ]:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(malo, esquema)
        error_herramienta(
            llamar(client, "reporte_preparar", malo, **mundo["todas"]), "DATOS_INVALIDOS"
        )


# --- problems come back with their path -----------------------------------------------------


@pytest.mark.parametrize(
    ("argumentos", "ruta"),
    [
        ({}, "ficha"),
        ({"ficha": "cdp"}, "ficha"),
        ({"ficha": {}}, "ficha.fuente"),
        ({"ficha": {"fuente": "nomina"}}, "ficha.fuente"),
        ({"ficha": {"fuente": "cdp", "formato": "pdf"}}, "ficha.formato"),
        ({"ficha": {"fuente": "cdp", "titulo": "ab"}}, "ficha.titulo"),
        ({"ficha": {"fuente": "cdp", "titulo": "t" * 151}}, "ficha.titulo"),
        ({"ficha": {"fuente": "cdp", "extra": 1}}, "ficha.extra"),
        ({"ficha": {"fuente": "cdp", "filtros": "x"}}, "ficha.filtros"),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo", "valor": 1}] * 11}},
            "ficha.filtros",
        ),
        ({"ficha": {"fuente": "cdp", "filtros": ["saldo"]}}, "ficha.filtros.0"),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "clave", "valor": 1}]}},
            "ficha.filtros.0.campo",
        ),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "beneficiario", "valor": "x"}]}},
            "ficha.filtros.0.campo",
        ),
        (
            {
                "ficha": {
                    "fuente": "cdp",
                    "filtros": [{"campo": "saldo", "op": "contiene", "valor": 1}],
                }
            },
            "ficha.filtros.0.op",
        ),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo", "op": "like", "valor": 1}]}},
            "ficha.filtros.0.op",
        ),
        (
            {
                "ficha": {
                    "fuente": "cdp",
                    "filtros": [{"campo": "saldo", "op": "gt", "valor": "mucho"}],
                }
            },
            "ficha.filtros.0.valor",
        ),
        ({"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo"}]}}, "ficha.filtros.0.valor"),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo", "valor": True}]}},
            "ficha.filtros.0.valor",
        ),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "estado", "valor": "pagado"}]}},
            "ficha.filtros.0.valor",
        ),
        (
            {
                "ficha": {
                    "fuente": "cdp",
                    "filtros": [{"campo": "saldo", "op": "entre", "valor": [1]}],
                }
            },
            "ficha.filtros.0.valor",
        ),
        (
            {
                "ficha": {
                    "fuente": "cdp",
                    "filtros": [{"campo": "numero", "op": "en", "valor": ["x"] * 51}],
                }
            },
            "ficha.filtros.0.valor",
        ),
        (
            {"ficha": {"fuente": "cdp", "filtros": [{"campo": "saldo", "valor": 1, "x": 2}]}},
            "ficha.filtros.0.x",
        ),
        ({"ficha": {"fuente": "cdp", "columnas": []}}, "ficha.columnas"),
        ({"ficha": {"fuente": "cdp", "columnas": ["saldo", "saldo"]}}, "ficha.columnas.1"),
        ({"ficha": {"fuente": "paa", "columnas": ["saldo"]}}, "ficha.columnas.0"),
        ({"ficha": {"fuente": "cdp", "orden": ["saldo"] * 4}}, "ficha.orden"),
        ({"ficha": {"fuente": "cdp", "orden": ["+saldo"]}}, "ficha.orden.0"),
        ({"ficha": {"fuente": "cdp", "orden": ["saldo", "-saldo"]}}, "ficha.orden.1"),
        ({"ficha": CDP_GRANDES, "peticion": ""}, "peticion"),
        ({"ficha": CDP_GRANDES, "peticion": "p" * 301}, "peticion"),
        ({"ficha": CDP_GRANDES, "generar": True}, "generar"),
    ],
)
def test_problems_are_datos_invalidos_with_their_path(client, mundo, argumentos, ruta):
    error = error_herramienta(
        llamar(client, "reporte_preparar", argumentos, **mundo["todas"]), "DATOS_INVALIDOS"
    )
    assert ruta in error["campos"], error["campos"]
    assert ruta in error["mensaje"]


def test_every_problem_of_a_ficha_is_listed_at_once(client, mundo):
    ficha = {
        "fuente": "cdp",
        "formato": "pdf",
        "filtros": [
            {"campo": "saldo", "op": "contiene", "valor": 1},
            {"campo": "fecha_expedicion", "valor": "ayer"},
        ],
    }
    error = error_herramienta(_preparar(client, mundo["todas"], ficha), "DATOS_INVALIDOS")
    assert {"ficha.formato"} <= set(error["campos"])
    catalogo = {"fuente": "cdp", "filtros": ficha["filtros"]}
    error = error_herramienta(_preparar(client, mundo["todas"], catalogo), "DATOS_INVALIDOS")
    assert set(error["campos"]) == {"ficha.filtros.0.op", "ficha.filtros.1.valor"}


def test_values_at_the_bounds_are_accepted(client, mundo):
    ficha = {
        "fuente": "cdp",
        "titulo": "abc",
        "filtros": [{"campo": "saldo", "op": "gte", "valor": 0}] * 10,
        "columnas": list(reportes.FUENTES["cdp"].campos),
        "orden": ["area", "-saldo", "numero"],
    }
    datos = _valida(_preparar(client, mundo["todas"], ficha, peticion="p" * 300))
    assert datos["total_filas"] == 4 and len(datos["peticion"]) == 300
    ficha = {
        "fuente": "cdp",
        "titulo": "t" * 150,
        "filtros": [{"campo": "numero", "op": "en", "valor": ["x"] * 50}],
    }
    assert _valida(_preparar(client, mundo["todas"], ficha, peticion="p"))["total_filas"] == 0


# --- cost -----------------------------------------------------------------------------------


def test_the_query_count_does_not_grow_with_the_data(client, mundo, django_assert_num_queries):
    cabeceras = mundo["duena"]
    ficha = {
        "fuente": "rp",
        "filtros": [{"campo": "objeto", "op": "contiene", "valor": "servicios"}],
    }
    _preparar(client, cabeceras, ficha)
    with CaptureQueriesContext(connection) as antes:
        _preparar(client, cabeceras, ficha)
    proyecto, oap = mundo["proyecto"], mundo["oap"]
    for _ in range(8):
        rp_expedido(cdp_expedido(proyecto, oap, "10.00"), "10.00")
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _preparar(client, cabeceras, ficha)
    assert r.estructura["total_filas"] == 11 and len(r.estructura["muestra"]) == 5
