"""estado_rp: an RP whose CDP belongs to the caller's areas, with exact amounts and dates, never
the beneficiary's document; one indistinguishable not-found answer otherwise."""

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
    rp_expedido,
    rp_solicitado,
)

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
PLANEACION = "presupuesto.planeacion.consultar"
CAMPOS = {
    "numero_rp",
    "numero_externo",
    "numero_radicado",
    "estado",
    "estado_visible",
    "estado_descripcion",
    "estado_expedicion",
    "cdp",
    "beneficiario",
    "objeto",
    "valor_inicial",
    "valor_actual",
    "obligado",
    "fecha_expedicion",
    "fecha_inicio",
    "fecha_fin",
    "motivo_devolucion",
    "motivo_rechazo",
    "encontrado",
}
EXTRAS = {"movimientos", "area", "vigencia", "enlace", "url"}
IMPORTES = ("valor_inicial", "valor_actual", "obligado")
DOCUMENTO = "900123456-7"


@pytest.fixture
def mundo():
    """An RP of OAP for 1.200.000,00 with 450.000,50 obligated; another RP in OTI."""
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de Tecnologías de la Información")
    proyecto = ProyectoFactory(vigencia=vigencia, codigo="2026-001")
    services.asignar(proyecto=proyecto, area=oap, valor="5000000.00")
    services.asignar(proyecto=proyecto, area=oti, valor="1000000.00")
    cdp = cdp_expedido(proyecto, oap, "2000000.00")
    solicitado = rp_solicitado(
        cdp,
        "1200000.00",
        beneficiario="Consultores\u200b Andinos S.A.S.\u202e",
        documento_beneficiario=DOCUMENTO,
        objeto="Consultoría para el plan estratégico",
        fecha_inicio=datetime.date(2026, 4, 1),
        fecha_fin=datetime.date(2026, 12, 15),
        numero_radicado="SOL-2026-000456",
    )
    rp = services.expedir_rp(
        rp=solicitado, numero_externo="rp-77", fecha_expedicion=datetime.date(2026, 3, 20)
    )
    services.registrar_movimiento_rp(
        rp=rp, tipo="obligacion", valor="450000.50", descripcion="Primer pago"
    )
    ajeno = rp_expedido(cdp_expedido(proyecto, oti, "300000.00"), "100000.00")
    duena = UserFactory(username="duena_rp", areas=[oap], permisos=[USAR, PLANEACION])
    return {
        "rp": rp,
        "cdp": cdp,
        "ajeno": ajeno,
        "proyecto": proyecto,
        "oap": oap,
        "oti": oti,
        "como_duena": _como(duena),
    }


def _como(usuario) -> dict[str, str]:
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


def _persona(*permisos: str, areas=()) -> dict[str, str]:
    return _como(UserFactory(areas=list(areas), permisos=[USAR, *permisos]))


def _consultar(client, cabeceras, numero):
    return llamar(client, "estado_rp", {"numero": numero}, **cabeceras)


def _valida(r) -> dict:
    resultado = r.resultado
    assert resultado["isError"] is False, resultado
    datos = resultado["structuredContent"]
    jsonschema.validate(
        datos,
        registro.obtener("estado_rp").esquema_salida,
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
    rp = mundo["rp"]
    datos = _valida(_consultar(client, mundo["como_duena"], rp.numero))
    assert set(datos) == CAMPOS | EXTRAS
    assert datos["numero_rp"] == rp.numero == "RP-2026-00001"
    assert datos["numero_externo"] == "RP-77"
    assert datos["numero_radicado"] == "SOL-2026-000456"
    assert datos["estado"] == "expedido" and datos["estado_visible"] == "Expedido"
    assert datos["estado_descripcion"].startswith("El RP fue expedido")
    assert datos["estado_expedicion"] is None
    assert datos["cdp"] == mundo["cdp"].numero
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
    for campo in IMPORTES:
        assert isinstance(datos[campo], int | float) and not isinstance(datos[campo], bool)


def test_the_beneficiarys_document_never_appears(client, mundo):
    r = _consultar(client, mundo["como_duena"], mundo["rp"].numero)
    assert DOCUMENTO not in r.http.content.decode()
    assert not any("documento" in campo for campo in r.estructura)


def test_amounts_carry_exactly_the_stored_digits(client, mundo):
    r = _consultar(client, mundo["como_duena"], mundo["rp"].numero)
    cuerpo = json.loads(r.http.content, parse_float=Decimal)
    estructura = cuerpo["result"]["structuredContent"]
    texto = cuerpo["result"]["content"][1]["text"]
    esperado = {
        "valor_inicial": "1200000.00",
        "valor_actual": "1200000.00",
        "obligado": "450000.50",
    }
    for campo, cifra in esperado.items():
        assert str(estructura[campo]) == cifra
        assert f'"{campo}":{cifra}' in texto
    esquema = registro.obtener("estado_rp").esquema_salida
    assert all(esquema["properties"][c]["type"] == "number" for c in IMPORTES)


def test_the_summary_is_spanish_with_amounts_for_people(client, mundo):
    resumen = _consultar(client, mundo["como_duena"], mundo["rp"].numero).resultado["content"][0][
        "text"
    ]
    assert resumen.startswith("RP-2026-00001 (n.º externo RP-77): Expedido.")
    assert "obligado $ 450.000,50; por obligar $ 749.999,50" in resumen
    assert f"Respaldado por el {mundo['cdp'].numero}" in resumen
    assert "Plazo: 2026-04-01 a 2026-12-15." in resumen
    assert "Beneficiario: Consultores Andinos S.A.S. Objeto: «Consultoría" in resumen
    assert DOCUMENTO not in resumen


def test_the_external_number_finds_it_ignoring_case(client, mundo):
    assert _valida(_consultar(client, mundo["como_duena"], " rp-77 "))["numero_rp"] == (
        mundo["rp"].numero
    )


def test_a_fully_obligated_rp_is_ejecutado(client, mundo):
    services.registrar_movimiento_rp(
        rp=mundo["rp"], tipo="obligacion", valor="749999.50", descripcion="Pago final"
    )
    datos = _valida(_consultar(client, mundo["como_duena"], mundo["rp"].numero))
    assert datos["estado"] == "ejecutado"
    assert datos["obligado"] == datos["valor_actual"] == 1200000.0


def test_a_returned_rp_shows_its_reason_and_null_dates(client, mundo):
    rp = rp_solicitado(mundo["cdp"], "1000.00")
    services.devolver(documento=rp, motivo="Falta la póliza")
    datos = _valida(_consultar(client, mundo["como_duena"], rp.numero))
    assert datos["estado"] == "devuelto" and datos["motivo_devolucion"] == "Falta la póliza"
    assert datos["fecha_expedicion"] is None and datos["fecha_inicio"] is None
    assert datos["fecha_fin"] is None and datos["numero_externo"] is None


def test_a_rejected_rp_shows_its_reason(client, mundo):
    rp = rp_solicitado(mundo["cdp"], "1000.00")
    services.rechazar(documento=rp, motivo="Beneficiario inhabilitado")
    datos = _valida(_consultar(client, mundo["como_duena"], rp.numero))
    assert datos["estado"] == "rechazado" and datos["motivo_rechazo"] == "Beneficiario inhabilitado"


def test_an_rp_under_review_shows_its_sub_step(client, mundo):
    rp = services.revisar(documento=rp_solicitado(mundo["cdp"], "1000.00"))
    services.marcar_expedicion(documento=rp, estado_expedicion="en_sistema_financiero")
    datos = _valida(_consultar(client, mundo["como_duena"], rp.numero))
    assert datos["estado_expedicion"] == "en_sistema_financiero"


# --- who may see it -------------------------------------------------------------------------


def test_a_colleague_who_sees_every_area_gets_it(client, mundo):
    cabeceras = _persona(PLANEACION, "presupuesto.areas.todas")
    datos = _valida(_consultar(client, cabeceras, mundo["rp"].numero))
    assert datos["obligado"] == 450000.5


def test_an_outsider_gets_the_same_answer_as_for_a_missing_number(client, mundo):
    cabeceras = _persona(PLANEACION, areas=[mundo["oti"]])
    ajeno = _error(_consultar(client, cabeceras, mundo["rp"].numero), "NO_ENCONTRADO")
    inexistente = _error(_consultar(client, cabeceras, "RP-2026-09999"), "NO_ENCONTRADO")
    assert ajeno == inexistente
    assert ajeno["structuredContent"]["encontrado"] is False
    assert _valida(_consultar(client, cabeceras, mundo["ajeno"].numero))["numero_rp"] == (
        mundo["ajeno"].numero
    )


def test_the_owner_does_not_see_another_areas_rp(client, mundo):
    r = _consultar(client, mundo["como_duena"], mundo["ajeno"].numero)
    assert _error(r, "NO_ENCONTRADO")["structuredContent"]["encontrado"] is False


def test_a_cdp_number_is_not_an_rp(client, mundo):
    _error(_consultar(client, mundo["como_duena"], mundo["cdp"].numero), "NO_ENCONTRADO")


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    _error(_consultar(client, clave, mundo["rp"].numero), "SIN_IDENTIDAD")


def test_without_the_permission_the_answer_is_sin_permiso(client, mundo):
    cabeceras = _persona("presupuesto.reportes.consultar", areas=[mundo["oap"]])
    _error(_consultar(client, cabeceras, mundo["rp"].numero), "SIN_PERMISO")
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "estado_rp" not in nombres


# --- argument bounds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [{}, {"numero": "R"}, {"numero": "R" * 61}, {"numero": 7}, {"numero": None}],
    ids=["falta", "1-caracter", "61-caracteres", "no-texto", "nulo"],
)
def test_invalid_numbers_are_datos_invalidos(client, mundo, argumentos):
    r = llamar(client, "estado_rp", argumentos, **mundo["como_duena"])
    assert _error(r, "DATOS_INVALIDOS")["structuredContent"]["campos"].keys() == {"numero"}


@pytest.mark.parametrize("numero", ["RP", "R" * 60], ids=["2-caracteres", "60-caracteres"])
def test_numbers_at_the_bounds_are_searched(client, mundo, numero):
    _error(_consultar(client, mundo["como_duena"], numero), "NO_ENCONTRADO")


# --- cost -----------------------------------------------------------------------------------


def test_the_query_count_does_not_grow_with_the_data(client, mundo, django_assert_num_queries):
    cabeceras, numero = mundo["como_duena"], mundo["rp"].numero
    _consultar(client, cabeceras, numero)
    with CaptureQueriesContext(connection) as antes:
        _consultar(client, cabeceras, numero)
    for i in range(6):
        services.registrar_movimiento_rp(
            rp=mundo["rp"], tipo="obligacion", valor="1.00", descripcion=f"Pago {i}"
        )
        rp_expedido(mundo["cdp"], "10.00")
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _consultar(client, cabeceras, numero)
    assert r.estructura["movimientos"] == 7
