"""estado_cdp and estado_rp: what both tools promise, tested once for each tool (the `documento`
fixture): every field with its type, the summary, exact amounts, found by either number ignoring
case, the review and its reasons, one indistinguishable not-found answer for a missing number and
another area's document, the permissions, the argument bounds and a fixed number of queries; then
what only one of them has (an external number at its bound, the beneficiary's document, a fully
obligated RP)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto import services
from hub.herramientas.registro import registro
from tests.mcp_cliente import (
    Respuesta,
    error_herramienta,
    llamar,
    no_encontrado_igual,
    rpc,
    validador,
)
from tests.presupuesto import mundos
from tests.presupuesto.factories import cdp_expedido, cdp_solicitado, rp_expedido, rp_solicitado
from tests.presupuesto.mundos import (
    CAMPOS_CDP,
    CAMPOS_RP,
    DOCUMENTO_BENEFICIARIO,
    EXTRAS_CDP,
    EXTRAS_RP,
    IMPORTES_CDP,
    IMPORTES_RP,
    OTI,
    PLANEACION,
    persona,
)

pytestmark = pytest.mark.django_db


@dataclass
class Caso:
    """One of the two tools, with its world and what differs between them."""

    herramienta: str
    sigla: str
    campo_numero: str
    campos: set[str]
    extras: set[str]
    # The amounts as stored, to the cent, of the world's document.
    importes: dict[str, str]
    # What a colleague who sees every area reads, to check it is the world's document.
    cifra_visible: tuple[str, float]
    # A new request of this kind in the owner's area.
    solicitar: Callable[[dict[str, Any]], Any]
    # Data that must not change the cost of a query: movements and documents.
    crecer: Callable[[dict[str, Any], int], None]
    # Fields empty in a returned request (besides fecha_expedicion and numero_externo).
    vacios_al_devolver: tuple[str, ...]
    # How the world's external number may be typed, and what the outsider's own document shows.
    externo_escrito: str
    propio_de_oti: dict[str, str]
    mundo: dict[str, Any]
    # The world's document as the owner area reads it: fields with their exact values, its
    # address under /presupuesto/ and the amounts that must be JSON numbers.
    esperado: dict[str, Any]
    ruta: str
    importes_numero: set[str]
    # The summary for people: how it starts and what it says.
    resumen_inicio: str
    resumen_dice: tuple[str, ...]

    def consultar(self, client, cabeceras: dict[str, str], numero: Any) -> Respuesta:
        return llamar(client, self.herramienta, {"numero": numero}, **cabeceras)

    def valida(self, r: Respuesta) -> dict:
        return validador(self.herramienta)(r)


def _crecer_cdp(mundo: dict[str, Any], i: int) -> None:
    cdp = mundo["cdp"]
    services.registrar_movimiento_cdp(
        cdp=cdp, tipo="adicion", valor="1.00", descripcion=f"Ajuste {i}"
    )
    rp_expedido(cdp, "10.00")
    cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00")


def _crecer_rp(mundo: dict[str, Any], i: int) -> None:
    services.registrar_movimiento_rp(
        rp=mundo["rp"], tipo="obligacion", valor="1.00", descripcion=f"Pago {i}"
    )
    rp_expedido(mundo["cdp"], "10.00")


COMUNES = {
    "estado": "expedido",
    "estado_visible": "Expedido",
    "estado_expedicion": None,
    "objeto": "Consultoría para el plan estratégico",
    "movimientos": 1,
    "motivo_devolucion": None,
    "motivo_rechazo": None,
    "encontrado": True,
    "area": "Oficina Asesora de Planeación",
    "vigencia": 2026,
}


@pytest.fixture(params=["cdp", "rp"])
def documento(request) -> Caso:
    """Each tool in turn, on its own world."""
    if request.param == "cdp":
        mundo = mundos.mundo_cdp()
        return Caso(
            herramienta="estado_cdp",
            sigla="CDP",
            campo_numero="numero_cdp",
            campos=CAMPOS_CDP,
            extras=EXTRAS_CDP,
            importes={
                "valor_inicial": "1500000.00",
                "valor_actual": "1500000.25",
                "comprometido": "500000.00",
                "saldo": "1000000.25",
            },
            cifra_visible=("saldo", 1000000.25),
            solicitar=lambda m: cdp_solicitado(m["proyecto"], m["oap"], "1000.00"),
            crecer=_crecer_cdp,
            vacios_al_devolver=("dependencia",),
            externo_escrito="  Ext-4521 ",
            propio_de_oti={"area_sigla": "OTI", "area": OTI},
            mundo=mundo,
            esperado={
                **COMUNES,
                "numero_cdp": "CDP-2026-00001",
                "numero_externo": "EXT-4521",
                "numero_radicado": "SOL-2026-000123",
                "area_sigla": "OAP",
                "dependencia": "Grupo de Planeación",  # invisible character removed
                "fecha_expedicion": "2026-03-05",
                "proyecto": "2026-001",
                "linea_paa": None,
            },
            ruta="cdp",
            importes_numero=IMPORTES_CDP,
            resumen_inicio="CDP-2026-00001 (n.º externo EXT-4521): Expedido.",
            resumen_dice=(
                "Valor inicial $ 1.500.000,00",
                "saldo $ 1.000.000,25",
                "comprometido en RP $ 500.000,00",
                "Oficina Asesora de Planeación",
            ),
        )
    mundo = mundos.mundo_rp()
    return Caso(
        herramienta="estado_rp",
        sigla="RP",
        campo_numero="numero_rp",
        campos=CAMPOS_RP,
        extras=EXTRAS_RP,
        importes={
            "valor_inicial": "1200000.00",
            "valor_actual": "1200000.00",
            "obligado": "450000.50",
        },
        cifra_visible=("obligado", 450000.5),
        solicitar=lambda m: rp_solicitado(m["cdp"], "1000.00"),
        crecer=_crecer_rp,
        vacios_al_devolver=("fecha_inicio", "fecha_fin"),
        externo_escrito=" rp-77 ",
        propio_de_oti={"area": OTI},
        mundo=mundo,
        esperado={
            **COMUNES,
            "numero_rp": "RP-2026-00001",
            "numero_externo": "RP-77",
            "numero_radicado": "SOL-2026-000456",
            "cdp": mundo["cdp"].numero,
            "beneficiario": "Consultores Andinos S.A.S.",  # invisible characters removed
            "fecha_expedicion": "2026-03-20",
            "fecha_inicio": "2026-04-01",
            "fecha_fin": "2026-12-15",
        },
        ruta="rp",
        importes_numero=IMPORTES_RP,
        resumen_inicio="RP-2026-00001 (n.º externo RP-77): Expedido.",
        resumen_dice=(
            "obligado $ 450.000,50; por obligar $ 749.999,50",
            f"Respaldado por el {mundo['cdp'].numero}",
            "Plazo: 2026-04-01 a 2026-12-15.",
            "Beneficiario: Consultores Andinos S.A.S. Objeto: «Consultoría",
        ),
    )


# --- the answer, both tools -----------------------------------------------------------------


def test_the_owner_area_gets_every_field_with_its_type(client, documento):
    mundo = documento.mundo
    numero, pk = mundo["documento"].numero, mundo["documento"].pk
    datos = documento.valida(documento.consultar(client, mundo["como_duena"], numero))
    assert set(datos) == documento.campos | documento.extras
    assert datos[documento.campo_numero] == numero
    for campo, valor in documento.esperado.items():
        assert datos[campo] == valor, campo
    assert isinstance(datos["movimientos"], int)
    assert datos["estado_descripcion"].startswith(f"El {documento.sigla} fue expedido")
    assert datos["enlace"] == f"/presupuesto/{documento.ruta}/{pk}"
    assert datos["url"] == f"{settings.HUB_URL_PUBLICA}/presupuesto/{documento.ruta}/{pk}"
    for campo in documento.importes_numero:
        assert isinstance(datos[campo], int | float) and not isinstance(datos[campo], bool)


def test_the_summary_is_spanish_with_amounts_for_people(client, documento):
    mundo = documento.mundo
    r = documento.consultar(client, mundo["como_duena"], mundo["documento"].numero)
    resumen = r.resultado["content"][0]["text"]
    assert resumen.startswith(documento.resumen_inicio)
    for frase in documento.resumen_dice:
        assert frase in resumen, frase
    assert "\u202e" not in resumen and "\u200b" not in resumen


def test_amounts_carry_exactly_the_stored_digits(client, documento):
    mundo = documento.mundo
    r = documento.consultar(client, mundo["como_duena"], mundo["documento"].numero)
    cuerpo = json.loads(r.http.content, parse_float=Decimal)
    estructura = cuerpo["result"]["structuredContent"]
    texto = cuerpo["result"]["content"][1]["text"]
    for campo, cifra in documento.importes.items():
        assert str(estructura[campo]) == cifra
        assert f'"{campo}":{cifra}' in texto  # a JSON number, not a string
        assert f'"{campo}":{cifra}' in r.http.content.decode()
    exito = registro.obtener(documento.herramienta).esquema_salida["anyOf"][0]
    assert all(exito["properties"][c]["type"] == "number" for c in documento.importes)


def test_the_external_and_the_own_number_find_it_ignoring_case_and_spaces(client, documento):
    mundo = documento.mundo
    numero = mundo["documento"].numero
    for escrito in (documento.externo_escrito, numero.lower(), f" {numero.lower()} "):
        datos = documento.valida(documento.consultar(client, mundo["como_duena"], escrito))
        assert datos[documento.campo_numero] == numero


def test_a_returned_request_shows_its_reason(client, documento):
    mundo = documento.mundo
    pedido = documento.solicitar(mundo)
    services.devolver(documento=pedido, motivo="Falta el estudio\u200b previo")
    r = documento.consultar(client, mundo["como_duena"], pedido.numero)
    datos = documento.valida(r)
    assert datos["estado"] == "devuelto" and datos["estado_visible"] == "Devuelto"
    assert datos["motivo_devolucion"] == "Falta el estudio previo"
    assert datos["fecha_expedicion"] is None and datos["numero_externo"] is None
    for campo in documento.vacios_al_devolver:
        assert datos[campo] is None, campo
    assert "Motivo de la devolución: «Falta el estudio previo»" in r.resultado["content"][0]["text"]


def test_a_rejected_request_shows_its_reason(client, documento):
    mundo = documento.mundo
    pedido = documento.solicitar(mundo)
    services.rechazar(documento=pedido, motivo="No hay necesidad")
    r = documento.consultar(client, mundo["como_duena"], pedido.numero)
    datos = documento.valida(r)
    assert datos["estado"] == "rechazado" and datos["motivo_rechazo"] == "No hay necesidad"
    assert "Motivo del rechazo: «No hay necesidad»." in r.resultado["content"][0]["text"]


@pytest.mark.parametrize(
    ("paso", "texto"),
    [
        ("en_firma", "En firma del ordenador del gasto"),
        ("en_sistema_financiero", "En registro en el sistema financiero"),
    ],
)
def test_a_request_under_review_shows_its_sub_step(client, documento, paso, texto):
    mundo = documento.mundo
    pedido = services.revisar(documento=documento.solicitar(mundo))
    services.marcar_expedicion(documento=pedido, estado_expedicion=paso)
    r = documento.consultar(client, mundo["como_duena"], pedido.numero)
    datos = documento.valida(r)
    assert datos["estado"] == "en_revision" and datos["estado_expedicion"] == paso
    assert f"Paso de la expedición: {texto}." in r.resultado["content"][0]["text"]


# --- who may see it, both tools -------------------------------------------------------------


@pytest.mark.parametrize("de_otra_area", [True, False], ids=["de-otra-area", "sin-area"])
def test_a_colleague_who_sees_every_area_gets_it(client, documento, de_otra_area):
    mundo = documento.mundo
    areas = [mundo["oti"]] if de_otra_area else []
    cabeceras = persona(PLANEACION, "presupuesto.areas.todas", areas=areas)
    datos = documento.valida(documento.consultar(client, cabeceras, mundo["documento"].numero))
    assert set(datos) == documento.campos | documento.extras
    campo, cifra = documento.cifra_visible
    assert datos[campo] == cifra


def test_an_outsider_gets_the_same_answer_as_for_a_missing_number(client, documento):
    mundo = documento.mundo
    cabeceras = persona(PLANEACION, areas=[mundo["oti"]])
    ajeno = no_encontrado_igual(
        lambda numero: documento.consultar(client, cabeceras, numero),
        mundo["documento"].numero,
        f"{documento.sigla}-2026-09999",
    )
    assert ajeno["encontrado"] is False
    assert set(ajeno) == {"codigo", "mensaje", "encontrado"}
    # And the outsider does see their own area's document.
    propio = documento.valida(documento.consultar(client, cabeceras, mundo["ajeno"].numero))
    assert propio[documento.campo_numero] == mundo["ajeno"].numero
    for campo, valor in documento.propio_de_oti.items():
        assert propio[campo] == valor, campo


def test_the_owner_does_not_see_another_areas_document(client, documento):
    mundo = documento.mundo
    ajeno = no_encontrado_igual(
        lambda numero: documento.consultar(client, mundo["como_duena"], numero),
        mundo["ajeno"].numero,
        f"{documento.sigla}-2026-09999",
    )
    assert ajeno["encontrado"] is False
    assert mundo["ajeno"].numero not in ajeno["mensaje"]


def test_an_inactive_person_cannot_use_the_tool(client, documento):
    mundo = documento.mundo
    mundo["duena"].is_active = False
    mundo["duena"].save()
    r = documento.consultar(client, mundo["como_duena"], mundo["documento"].numero)
    assert r.status == 403
    assert r.cuerpo["error"]["code"] == "SIN_PERMISO"


def test_the_api_key_alone_gets_sin_identidad(client, clave, documento):
    numero = documento.mundo["documento"].numero
    error_herramienta(documento.consultar(client, clave, numero), "SIN_IDENTIDAD")


def test_without_the_permission_the_answer_is_sin_permiso(client, documento):
    mundo = documento.mundo
    cabeceras = persona("presupuesto.reportes.consultar", areas=[mundo["oap"]])
    error_herramienta(
        documento.consultar(client, cabeceras, mundo["documento"].numero), "SIN_PERMISO"
    )
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert documento.herramienta not in nombres


def test_tools_list_shows_it_read_only_with_its_schemas(client, documento):
    mundo = documento.mundo
    herramientas = rpc(client, "tools/list", **mundo["como_duena"]).resultado["tools"]
    tool = next(t for t in herramientas if t["name"] == documento.herramienta)
    assert tool["annotations"]["readOnlyHint"] is True
    assert tool["annotations"]["destructiveHint"] is False
    assert tool["inputSchema"]["properties"]["numero"] == {
        "type": "string",
        "minLength": 2,
        "maxLength": 60,
        "description": tool["inputSchema"]["properties"]["numero"]["description"],
    }
    assert tool["inputSchema"]["required"] == ["numero"]
    exito, error = tool["outputSchema"]["anyOf"]
    assert set(exito["required"]) == documento.campos
    assert error["properties"]["encontrado"] == {"type": "boolean", "const": False}


# --- argument bounds, both tools ------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [
        pytest.param(lambda letra: {}, id="falta"),
        pytest.param(lambda letra: {"numero": letra}, id="1-caracter"),
        pytest.param(lambda letra: {"numero": letra * 61}, id="61-caracteres"),
        pytest.param(lambda letra: {"numero": 12345}, id="no-texto"),
        pytest.param(lambda letra: {"numero": 7}, id="no-texto-corto"),
        pytest.param(lambda letra: {"numero": "  "}, id="en-blanco"),
        pytest.param(lambda letra: {"numero": None}, id="nulo"),
    ],
)
def test_invalid_numbers_are_datos_invalidos(client, documento, argumentos):
    cabeceras = documento.mundo["como_duena"]
    r = llamar(client, documento.herramienta, argumentos(documento.sigla[0]), **cabeceras)
    assert error_herramienta(r, "DATOS_INVALIDOS")["campos"].keys() == {"numero"}


def test_an_unknown_argument_is_datos_invalidos(client, documento):
    mundo = documento.mundo
    argumentos = {"numero": mundo["documento"].numero, "area": "OAP"}
    r = llamar(client, documento.herramienta, argumentos, **mundo["como_duena"])
    assert "area" in error_herramienta(r, "DATOS_INVALIDOS")["campos"]


@pytest.mark.parametrize("largo", [2, 60], ids=["2-caracteres", "60-caracteres"])
def test_numbers_at_the_bounds_are_searched(client, documento, largo):
    numero = documento.sigla[:2] if largo == 2 else documento.sigla[0] * 60
    cabeceras = documento.mundo["como_duena"]
    error_herramienta(documento.consultar(client, cabeceras, numero), "NO_ENCONTRADO")


# --- cost, both tools -----------------------------------------------------------------------


def test_the_query_count_does_not_grow_with_the_data(client, documento, django_assert_num_queries):
    mundo = documento.mundo
    cabeceras, numero = mundo["como_duena"], mundo["documento"].numero
    documento.consultar(client, cabeceras, numero)
    with CaptureQueriesContext(connection) as antes:
        documento.consultar(client, cabeceras, numero)
    for i in range(6):
        documento.crecer(mundo, i)
    with django_assert_num_queries(len(antes.captured_queries)):
        r = documento.consultar(client, cabeceras, numero)
    assert r.estructura["movimientos"] == 7


# --- what only one of the tools has ---------------------------------------------------------


def test_a_cdp_whose_external_number_is_at_the_bound_is_found(client):
    mundo = mundos.mundo_cdp()
    cdp = cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00", numero_externo="Z" * 30)
    r = llamar(client, "estado_cdp", {"numero": "z" * 30}, **mundo["como_duena"])
    assert validador("estado_cdp")(r)["numero_cdp"] == cdp.numero


def test_the_beneficiarys_document_never_appears(client):
    mundo = mundos.mundo_rp()
    r = llamar(client, "estado_rp", {"numero": mundo["rp"].numero}, **mundo["como_duena"])
    assert DOCUMENTO_BENEFICIARIO not in r.http.content.decode()
    assert not any("documento" in campo for campo in r.estructura)


def test_a_fully_obligated_rp_is_ejecutado(client):
    mundo = mundos.mundo_rp()
    services.registrar_movimiento_rp(
        rp=mundo["rp"], tipo="obligacion", valor="749999.50", descripcion="Pago final"
    )
    r = llamar(client, "estado_rp", {"numero": mundo["rp"].numero}, **mundo["como_duena"])
    datos = validador("estado_rp")(r)
    assert datos["estado"] == "ejecutado"
    assert datos["obligado"] == datos["valor_actual"] == 1200000.0


def test_a_cdp_number_is_not_an_rp(client):
    mundo = mundos.mundo_rp()
    r = llamar(client, "estado_rp", {"numero": mundo["cdp"].numero}, **mundo["como_duena"])
    error_herramienta(r, "NO_ENCONTRADO")
