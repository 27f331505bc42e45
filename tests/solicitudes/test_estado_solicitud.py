"""estado_solicitud: full answer for who may see it, minimal with the filer's e-mail, one
indistinguishable not-found answer otherwise, and failed verifications limited."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.solicitudes import services
from hub.herramientas.registro import registro
from tests.busqueda import REFERENCIA_SOLICITUD
from tests.factories import GroupFactory, UserFactory
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import ajustar, llamar
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
COMPLETO = REFERENCIA_SOLICITUD | {
    "etapa_actual",
    "rol_responsable",
    "resumen",
    "fecha_radicacion",
    "fecha_actualizacion",
    "fecha_cierre",
    "radicado_padre",
    "radicados_hijos",
    "encontrado",
}
MINIMO = {
    "numero_radicado",
    "estado",
    "tipo",
    "etapa_actual",
    "fecha_radicacion",
    "fecha_actualizacion",
    "encontrado",
}
CORREO_EXTERNO = "ciudadana@correo.example"


@pytest.fixture
def escenario():
    """A two-stage type; one request by an employee, one by an outside person (with a child)."""
    revision, aprobacion = GroupFactory(name="Revisión T"), GroupFactory(name="Aprobación T")
    tipo = tipo_con_etapas(revision, aprobacion, nombre="Certificado laboral T")
    dueno = persona(username="dueno", permisos=["solicitudes.radicar", "mcp.asistente.usar"])
    propia = services.radicar(
        tipo=tipo, solicitante=dueno, resumen="Certificado\u200b para el banco\u202e"
    )
    externa = services.radicar(
        tipo=tipo,
        nombre_solicitante="Ciudadana Pérez",
        correo_solicitante=CORREO_EXTERNO,
        resumen="Consulta de un ciudadano",
    )
    hija = services.radicar(
        tipo=tipo, solicitante=dueno, resumen="Anexo del certificado", padre=propia
    )
    return {"propia": propia, "externa": externa, "hija": hija, "dueno": dueno}


def _como(usuario) -> dict[str, str]:
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


def _consultar(client, cabeceras, numero, **extra):
    return llamar(client, "estado_solicitud", {"numero_radicado": numero, **extra}, **cabeceras)


def _no_encontrada(r) -> dict:
    resultado = r.resultado
    assert resultado["isError"] is True
    assert resultado["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    assert resultado["structuredContent"]["encontrado"] is False
    return resultado


# --- with a person ------------------------------------------------------------------------------


def test_the_filer_gets_the_full_answer(client, escenario):
    propia = escenario["propia"]
    r = _consultar(client, _como(escenario["dueno"]), propia.numero_radicado)
    datos = r.estructura
    assert r.resultado["isError"] is False
    assert set(datos) == COMPLETO
    assert datos["numero_radicado"] == propia.numero_radicado
    assert datos["id_solicitud"] == propia.pk
    assert datos["enlace"] == f"/solicitudes/{propia.pk}"
    assert datos["estado"] == "radicado"
    assert datos["tipo"] == "Certificado laboral T"
    assert datos["etapa_actual"] == "Etapa 1 de Certificado laboral T"
    assert datos["rol_responsable"] == "Revisión T"
    assert datos["resumen"] == "Certificado para el banco"  # invisible characters removed
    assert FECHA.match(datos["fecha_radicacion"]) and FECHA.match(datos["fecha_actualizacion"])
    assert datos["fecha_cierre"] is None
    assert datos["radicado_padre"] is None
    assert datos["radicados_hijos"] == [escenario["hija"].numero_radicado]
    assert datos["encontrado"] is True
    assert json.loads(r.resultado["content"][1]["text"]) == datos
    assert propia.numero_radicado in r.resultado["content"][0]["text"]
    jsonschema.validate(datos, registro.obtener("estado_solicitud").esquema_salida)


def test_the_child_points_to_its_parent(client, escenario):
    r = _consultar(client, _como(escenario["dueno"]), escenario["hija"].numero_radicado)
    assert r.estructura["radicado_padre"] == escenario["propia"].numero_radicado
    assert r.estructura["radicados_hijos"] == []


def test_the_number_is_matched_exactly_ignoring_case_and_spaces(client, escenario):
    numero = escenario["propia"].numero_radicado
    r = _consultar(client, _como(escenario["dueno"]), f"  {numero.lower()} ")
    assert r.estructura["numero_radicado"] == numero


def test_a_colleague_who_may_see_everything_gets_the_full_answer(client, escenario):
    supervisora = UserFactory(permisos=["mcp.asistente.usar", "solicitudes.ver_todas"])
    r = _consultar(client, _como(supervisora), escenario["propia"].numero_radicado)
    assert set(r.estructura) == COMPLETO


def test_an_outsider_gets_the_same_answer_as_for_a_missing_request(client, escenario):
    extrano = UserFactory(permisos=["mcp.asistente.usar"])
    cabeceras = _como(extrano)
    ajena = _no_encontrada(_consultar(client, cabeceras, escenario["propia"].numero_radicado))
    inexistente = _no_encontrada(_consultar(client, cabeceras, "SOL-1999-000001"))
    assert ajena == inexistente


def test_a_person_does_not_need_the_email_and_it_changes_nothing(client, escenario):
    r = _consultar(
        client,
        _como(escenario["dueno"]),
        escenario["propia"].numero_radicado,
        correo_solicitante="otra@correo.example",
    )
    assert set(r.estructura) == COMPLETO


def test_the_full_answer_costs_a_fixed_number_of_queries(
    client, escenario, django_assert_num_queries
):
    cabeceras = _como(escenario["dueno"])
    numero = escenario["propia"].numero_radicado
    _consultar(client, cabeceras, numero)
    with CaptureQueriesContext(connection) as antes:
        _consultar(client, cabeceras, numero)
    tipo = escenario["propia"].tipo
    for i in range(5):
        services.radicar(
            tipo=tipo,
            solicitante=escenario["dueno"],
            resumen=f"Otro anexo {i}",
            padre=escenario["propia"],
        )
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _consultar(client, cabeceras, numero)
    assert len(r.estructura["radicados_hijos"]) == 6


# --- without a person ---------------------------------------------------------------------------


def test_without_a_person_the_email_is_required(client, clave, escenario):
    r = _consultar(client, clave, escenario["externa"].numero_radicado)
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "FALTA_VERIFICACION"


def test_with_the_filers_email_the_answer_is_the_minimal_subset(client, clave, escenario):
    externa = escenario["externa"]
    r = _consultar(
        client, clave, externa.numero_radicado, correo_solicitante=CORREO_EXTERNO.upper()
    )
    datos = r.estructura
    assert r.resultado["isError"] is False
    assert set(datos) == MINIMO
    assert datos["numero_radicado"] == externa.numero_radicado
    assert datos["estado"] == "radicado" and datos["encontrado"] is True
    assert FECHA.match(datos["fecha_actualizacion"])
    jsonschema.validate(datos, registro.obtener("estado_solicitud").esquema_salida)


def test_an_employees_request_is_verified_with_their_account_email(client, clave, escenario):
    propia = escenario["propia"]
    r = _consultar(
        client, clave, propia.numero_radicado, correo_solicitante=escenario["dueno"].email
    )
    assert set(r.estructura) == MINIMO


def test_missing_request_wrong_email_and_other_request_answer_identically(client, clave, escenario):
    respuestas = [
        _consultar(client, clave, "SOL-1999-000001", correo_solicitante=CORREO_EXTERNO),
        _consultar(
            client,
            clave,
            escenario["externa"].numero_radicado,
            correo_solicitante="otra@correo.example",
        ),
        _consultar(
            client, clave, escenario["propia"].numero_radicado, correo_solicitante=CORREO_EXTERNO
        ),
    ]
    resultados = [_no_encontrada(r) for r in respuestas]
    assert resultados[0] == resultados[1] == resultados[2]


def test_eight_failed_verifications_block_even_the_right_answer(client, clave, escenario):
    externa = escenario["externa"].numero_radicado
    for i in range(8):
        _no_encontrada(
            _consultar(client, clave, externa, correo_solicitante=f"x{i}@correo.example")
        )
    r = _consultar(client, clave, externa, correo_solicitante=CORREO_EXTERNO)
    assert r.estructura["codigo"] == "DEMASIADOS_INTENTOS"
    otra_ip = llamar(
        client,
        "estado_solicitud",
        {"numero_radicado": externa, "correo_solicitante": CORREO_EXTERNO},
        REMOTE_ADDR="10.9.8.7",
        **clave,
    )
    assert set(otra_ip.estructura) == MINIMO


def test_the_limit_of_failed_verifications_comes_from_the_settings(client, clave, escenario):
    ajustar(verificaciones_fallidas_por_hora=2)
    externa = escenario["externa"].numero_radicado
    for _ in range(2):
        _consultar(client, clave, externa, correo_solicitante="mal@correo.example")
    r = _consultar(client, clave, externa, correo_solicitante=CORREO_EXTERNO)
    assert r.estructura["codigo"] == "DEMASIADOS_INTENTOS"


def test_a_persons_misses_do_not_count_as_failed_verifications(client, clave, escenario):
    ajustar(verificaciones_fallidas_por_hora=1)
    extrano = {**clave, **_como(UserFactory(permisos=["mcp.asistente.usar"]))}
    for _ in range(3):
        _no_encontrada(_consultar(client, extrano, "SOL-1999-000001"))
    r = _consultar(
        client, clave, escenario["externa"].numero_radicado, correo_solicitante=CORREO_EXTERNO
    )
    assert set(r.estructura) == MINIMO


def test_the_minimal_answer_costs_a_fixed_number_of_queries(
    client, clave, escenario, django_assert_num_queries
):
    numero = escenario["externa"].numero_radicado
    _consultar(client, clave, numero, correo_solicitante=CORREO_EXTERNO)
    with CaptureQueriesContext(connection) as antes:
        _consultar(client, clave, numero, correo_solicitante=CORREO_EXTERNO)
    tipo = escenario["externa"].tipo
    for i in range(5):
        services.radicar(
            tipo=tipo,
            nombre_solicitante="Otra persona",
            correo_solicitante=CORREO_EXTERNO,
            resumen=f"Otra consulta {i}",
        )
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _consultar(client, clave, numero, correo_solicitante=CORREO_EXTERNO)
    assert set(r.estructura) == MINIMO


def test_the_administrator_can_close_it_to_integrations_without_person(client, clave, escenario):
    ajustar(herramientas_publicas=["buscar_documento"])
    r = _consultar(
        client, clave, escenario["externa"].numero_radicado, correo_solicitante=CORREO_EXTERNO
    )
    assert r.estructura["codigo"] == "SIN_IDENTIDAD"


@pytest.mark.parametrize(
    "argumentos",
    [
        {"numero_radicado": "ab"},
        {"numero_radicado": "x" * 61},
        {"numero_radicado": "SOL-1", "correo_solicitante": "a" * 151},
        {},
    ],
)
def test_invalid_arguments_are_datos_invalidos(client, clave, argumentos):
    r = llamar(client, "estado_solicitud", argumentos, **clave)
    assert r.estructura["codigo"] == "DATOS_INVALIDOS"
