"""estado_cdp: a CDP of the caller's areas by number or external number, with exact amounts; one
indistinguishable not-found answer for a missing number and another area's CDP."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import jsonschema
import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.mcp.registro import registro
from apps.presupuesto import services
from tests.factories import AreaFactory, UserFactory
from tests.mcp.conftest import llamar, rpc
from tests.mcp.factories import nuevo_token
from tests.presupuesto.factories import (
    ProyectoFactory,
    VigenciaFactory,
    cdp_expedido,
    cdp_solicitado,
    rp_expedido,
)

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
PLANEACION = "presupuesto.planeacion.consultar"
CAMPOS = {
    "numero_cdp",
    "numero_externo",
    "numero_radicado",
    "estado",
    "estado_visible",
    "estado_descripcion",
    "estado_expedicion",
    "area",
    "dependencia",
    "objeto",
    "valor_inicial",
    "valor_actual",
    "comprometido",
    "saldo",
    "fecha_expedicion",
    "movimientos",
    "motivo_devolucion",
    "motivo_rechazo",
    "encontrado",
}
EXTRAS = {"area_sigla", "vigencia", "proyecto", "linea_paa", "enlace", "url"}
IMPORTES = ("valor_inicial", "valor_actual", "comprometido", "saldo")


@pytest.fixture
def mundo():
    """One CDP of OAP (1.500.000,00 + 0,25 added, 500.000,00 committed), one of OTI."""
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de Tecnologías\u200b de la Información")
    proyecto = ProyectoFactory(vigencia=vigencia, codigo="2026-001")
    services.asignar(proyecto=proyecto, area=oap, valor="5000000.00")
    services.asignar(proyecto=proyecto, area=oti, valor="1000000.00")
    solicitado = cdp_solicitado(
        proyecto,
        oap,
        "1500000.00",
        objeto="Consultoría\u202e para el plan\u200b estratégico",
        dependencia="Grupo de Planeación\u200b",
        numero_radicado="SOL-2026-000123",
    )
    cdp = services.expedir_cdp(
        cdp=solicitado, numero_externo="ext-4521", fecha_expedicion=datetime.date(2026, 3, 5)
    )
    services.registrar_movimiento_cdp(
        cdp=cdp, tipo="adicion", valor="0.25", descripcion="Ajuste de centavos"
    )
    rp_expedido(cdp, "500000.00")
    ajeno = cdp_expedido(proyecto, oti, "300000.00", objeto="Licencias de software")
    duena = UserFactory(username="duena_cdp", areas=[oap], permisos=[USAR, PLANEACION])
    return {
        "cdp": cdp,
        "ajeno": ajeno,
        "proyecto": proyecto,
        "oap": oap,
        "oti": oti,
        "duena": duena,
        "como_duena": _como(duena),
    }


def _como(usuario) -> dict[str, str]:
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


def _persona(*permisos: str, areas=()) -> dict[str, str]:
    return _como(UserFactory(areas=list(areas), permisos=[USAR, *permisos]))


def _consultar(client, cabeceras, numero):
    return llamar(client, "estado_cdp", {"numero": numero}, **cabeceras)


def _valida(r) -> dict:
    resultado = r.resultado
    assert resultado["isError"] is False, resultado
    datos = resultado["structuredContent"]
    jsonschema.validate(
        datos,
        registro.obtener("estado_cdp").esquema_salida,
        format_checker=jsonschema.FormatChecker(),
    )
    assert json.loads(resultado["content"][1]["text"]) == datos
    return datos


def _error(r, codigo: str) -> dict:
    resultado = r.resultado
    assert resultado["isError"] is True, resultado
    assert resultado["structuredContent"]["codigo"] == codigo
    return resultado


# --- the answer -----------------------------------------------------------------------------


def test_the_owner_area_gets_every_field_with_its_type(client, mundo):
    cdp = mundo["cdp"]
    datos = _valida(_consultar(client, mundo["como_duena"], cdp.numero))
    assert set(datos) == CAMPOS | EXTRAS
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
    for campo in IMPORTES:
        assert isinstance(datos[campo], int | float) and not isinstance(datos[campo], bool)


def test_amounts_carry_exactly_the_stored_digits(client, mundo):
    r = _consultar(client, mundo["como_duena"], mundo["cdp"].numero)
    cuerpo = json.loads(r.http.content, parse_float=Decimal)
    estructura = cuerpo["result"]["structuredContent"]
    texto = cuerpo["result"]["content"][1]["text"]
    esperado = {
        "valor_inicial": "1500000.00",
        "valor_actual": "1500000.25",
        "comprometido": "500000.00",
        "saldo": "1000000.25",
    }
    for campo, cifra in esperado.items():
        assert str(estructura[campo]) == cifra
        assert f'"{campo}":{cifra}' in texto  # a JSON number, not a string
        assert f'"{campo}":{cifra}' in r.http.content.decode()
    esquema = registro.obtener("estado_cdp").esquema_salida
    assert all(esquema["properties"][c]["type"] == "number" for c in IMPORTES)


def test_the_summary_is_spanish_with_amounts_for_people(client, mundo):
    r = _consultar(client, mundo["como_duena"], mundo["cdp"].numero)
    resumen = r.resultado["content"][0]["text"]
    assert resumen.startswith("CDP-2026-00001 (n.º externo EXT-4521): Expedido.")
    assert "valor inicial $ 1.500.000,00" in resumen.lower()
    assert "saldo $ 1.000.000,25" in resumen
    assert "comprometido en RP $ 500.000,00" in resumen
    assert "Oficina Asesora de Planeación" in resumen
    assert "\u202e" not in resumen and "\u200b" not in resumen


def test_the_external_number_finds_it_ignoring_case_and_spaces(client, mundo):
    datos = _valida(_consultar(client, mundo["como_duena"], "  Ext-4521 "))
    assert datos["numero_cdp"] == mundo["cdp"].numero
    datos = _valida(_consultar(client, mundo["como_duena"], "cdp-2026-00001"))
    assert datos["numero_cdp"] == mundo["cdp"].numero


def test_a_returned_cdp_shows_its_reason(client, mundo):
    cdp = cdp_solicitado(mundo["proyecto"], mundo["oap"], "1000.00")
    services.devolver(documento=cdp, motivo="Falta el estudio\u200b previo")
    datos = _valida(_consultar(client, mundo["como_duena"], cdp.numero))
    assert datos["estado"] == "devuelto" and datos["estado_visible"] == "Devuelto"
    assert datos["motivo_devolucion"] == "Falta el estudio previo"
    assert datos["fecha_expedicion"] is None
    assert datos["numero_externo"] is None and datos["dependencia"] is None
    assert (
        "Motivo de la devolución: «Falta el estudio previo»"
        in (_consultar(client, mundo["como_duena"], cdp.numero).resultado["content"][0]["text"])
    )


def test_a_rejected_cdp_shows_its_reason(client, mundo):
    cdp = cdp_solicitado(mundo["proyecto"], mundo["oap"], "1000.00")
    services.rechazar(documento=cdp, motivo="No hay necesidad")
    datos = _valida(_consultar(client, mundo["como_duena"], cdp.numero))
    assert datos["estado"] == "rechazado"
    assert datos["motivo_rechazo"] == "No hay necesidad"


def test_a_cdp_under_review_shows_its_sub_step(client, mundo):
    cdp = services.revisar(documento=cdp_solicitado(mundo["proyecto"], mundo["oap"], "1000.00"))
    services.marcar_expedicion(documento=cdp, estado_expedicion="en_firma")
    r = _consultar(client, mundo["como_duena"], cdp.numero)
    datos = _valida(r)
    assert datos["estado"] == "en_revision" and datos["estado_expedicion"] == "en_firma"
    assert (
        "Paso de la expedición: En firma del ordenador del gasto."
        in (r.resultado["content"][0]["text"])
    )


# --- who may see it -------------------------------------------------------------------------


def test_a_colleague_who_sees_every_area_gets_it(client, mundo):
    cabeceras = _persona(PLANEACION, "presupuesto.areas.todas", areas=[mundo["oti"]])
    datos = _valida(_consultar(client, cabeceras, mundo["cdp"].numero))
    assert set(datos) == CAMPOS | EXTRAS
    assert datos["saldo"] == 1000000.25


def test_an_outsider_gets_the_same_answer_as_for_a_missing_number(client, mundo):
    cabeceras = _persona(PLANEACION, areas=[mundo["oti"]])
    ajeno = _error(_consultar(client, cabeceras, mundo["cdp"].numero), "NO_ENCONTRADO")
    inexistente = _error(_consultar(client, cabeceras, "CDP-2026-00001"), "NO_ENCONTRADO")
    assert ajeno == inexistente
    assert ajeno["structuredContent"]["encontrado"] is False
    assert set(ajeno["structuredContent"]) == {"codigo", "mensaje", "encontrado"}
    # And the outsider does see their own area's CDP.
    assert _valida(_consultar(client, cabeceras, mundo["ajeno"].numero))["area_sigla"] == "OTI"


def test_the_owner_does_not_see_another_areas_cdp(client, mundo):
    ajeno = _error(_consultar(client, mundo["como_duena"], mundo["ajeno"].numero), "NO_ENCONTRADO")
    inexistente = _error(_consultar(client, mundo["como_duena"], "CDP-2026-09999"), "NO_ENCONTRADO")
    assert ajeno == inexistente
    assert mundo["ajeno"].numero not in ajeno["content"][0]["text"]


def test_an_inactive_person_cannot_use_the_tool(client, mundo):
    mundo["duena"].is_active = False
    mundo["duena"].save()
    r = _consultar(client, mundo["como_duena"], mundo["cdp"].numero)
    assert r.status == 403
    assert r.cuerpo["error"]["code"] == "SIN_PERMISO"


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    _error(_consultar(client, clave, mundo["cdp"].numero), "SIN_IDENTIDAD")


def test_without_the_permission_the_answer_is_sin_permiso(client, mundo):
    cabeceras = _persona("presupuesto.reportes.consultar", areas=[mundo["oap"]])
    _error(_consultar(client, cabeceras, mundo["cdp"].numero), "SIN_PERMISO")
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "estado_cdp" not in nombres


def test_tools_list_shows_it_read_only_with_its_schemas(client, mundo):
    herramientas = rpc(client, "tools/list", **mundo["como_duena"]).resultado["tools"]
    tool = next(t for t in herramientas if t["name"] == "estado_cdp")
    assert tool["annotations"]["readOnlyHint"] is True
    assert tool["annotations"]["destructiveHint"] is False
    assert tool["inputSchema"]["properties"]["numero"] == {
        "type": "string",
        "minLength": 2,
        "maxLength": 60,
        "description": tool["inputSchema"]["properties"]["numero"]["description"],
    }
    assert tool["inputSchema"]["required"] == ["numero"]
    assert set(tool["outputSchema"]["required"]) == CAMPOS


# --- argument bounds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [{}, {"numero": "C"}, {"numero": "C" * 61}, {"numero": 12345}, {"numero": "  "}],
    ids=["falta", "1-caracter", "61-caracteres", "no-texto", "en-blanco"],
)
def test_invalid_numbers_are_datos_invalidos(client, mundo, argumentos):
    r = llamar(client, "estado_cdp", argumentos, **mundo["como_duena"])
    assert _error(r, "DATOS_INVALIDOS")["structuredContent"]["campos"].keys() == {"numero"}


def test_an_unknown_argument_is_datos_invalidos(client, mundo):
    r = llamar(
        client, "estado_cdp", {"numero": mundo["cdp"].numero, "area": "OAP"}, **mundo["como_duena"]
    )
    assert "area" in _error(r, "DATOS_INVALIDOS")["structuredContent"]["campos"]


@pytest.mark.parametrize("numero", ["CD", "C" * 60], ids=["2-caracteres", "60-caracteres"])
def test_numbers_at_the_bounds_are_searched(client, mundo, numero):
    _error(_consultar(client, mundo["como_duena"], numero), "NO_ENCONTRADO")


def test_a_cdp_whose_external_number_is_at_the_bound_is_found(client, mundo):
    cdp = cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00", numero_externo="Z" * 30)
    assert _valida(_consultar(client, mundo["como_duena"], "z" * 30))["numero_cdp"] == cdp.numero


# --- cost -----------------------------------------------------------------------------------


def test_the_query_count_does_not_grow_with_the_data(client, mundo, django_assert_num_queries):
    cabeceras, numero = mundo["como_duena"], mundo["cdp"].numero
    _consultar(client, cabeceras, numero)
    with CaptureQueriesContext(connection) as antes:
        _consultar(client, cabeceras, numero)
    cdp = mundo["cdp"]
    for i in range(6):
        services.registrar_movimiento_cdp(
            cdp=cdp, tipo="adicion", valor="1.00", descripcion=f"Ajuste {i}"
        )
        rp_expedido(cdp, "10.00")
        cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00")
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _consultar(client, cabeceras, numero)
    assert r.estructura["movimientos"] == 7
