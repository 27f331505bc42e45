"""radicar_mesa_ayuda: a two-step write. The preview shows the ticket as it will be filed; the
confirmation files it in the caller's name and answers its number, once, only for the previewed
arguments, only while writes are enabled and within the per-minute limit."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria
from apps.solicitudes import services
from apps.solicitudes.models import Solicitud, Tarea, TipoSolicitud
from hub.herramientas.registro import registro
from tests.busqueda import REFERENCIA_SOLICITUD
from tests.factories import GroupFactory, UserFactory
from tests.mcp_cliente import ajustar, error_herramienta, llamar, rpc, validador
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
RADICAR = "solicitudes.radicar"
FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
ASUNTO = "No carga el tablero de presupuesto"
DESCRIPCION = "Al abrir el tablero aparece una pantalla en blanco desde esta mañana."
PREVIA = {
    "tipo",
    "solicitante",
    "asunto",
    "descripcion",
    "severidad",
    "severidad_visible",
    "modulo",
    "requiere_confirmacion",
    "token_confirmacion",
    "vence_en",
}
RADICADO = REFERENCIA_SOLICITUD | {
    "radicado",
    "etapa_actual",
    "solicitante",
    "asunto",
    "severidad",
    "severidad_visible",
    "modulo",
    "fecha_radicacion",
}


@pytest.fixture
def escenario():
    rol = GroupFactory(name="Mesa de ayuda MA")
    mesa = tipo_con_etapas(
        rol, nombre="Soporte tecnológico MA", prefijo="MDA", es_mesa_ayuda=True, plazos={1: 8}
    )
    ana = persona(permisos=[RADICAR, USAR], first_name="Ana", last_name="Pérez", username="ana")
    soporte = persona(rol, permisos=["solicitudes.bandeja.ver", USAR], first_name="Soporte")
    return {"mesa": mesa, "rol": rol, "ana": ana, "soporte": soporte}


def _argumentos(**cambios) -> dict:
    return {"asunto": ASUNTO, "descripcion": DESCRIPCION, **cambios}


def _llamar(client, cabeceras, **argumentos):
    return llamar(client, "radicar_mesa_ayuda", _argumentos(**argumentos), **cabeceras)


_valida = validador("radicar_mesa_ayuda")


def _token(client, cabeceras, **argumentos) -> str:
    return _valida(_llamar(client, cabeceras, **argumentos))["token_confirmacion"]


def _confirmar(client, cabeceras, token, **argumentos):
    return _llamar(client, cabeceras, confirmar=True, token_confirmacion=token, **argumentos)


def _radicar(client, cabeceras, **argumentos):
    return _confirmar(client, cabeceras, _token(client, cabeceras, **argumentos), **argumentos)


def _casos() -> int:
    return Solicitud.objects.filter(tipo__es_mesa_ayuda=True).count()


# --- the two steps --------------------------------------------------------------------------------


def test_the_preview_shows_the_ticket_and_writes_nothing(client, como, escenario):
    r = _llamar(
        client,
        como(escenario["ana"]),
        asunto=f" {ASUNTO}\u202e ",
        severidad="bloqueante",
        modulo="Presupuesto",
    )
    datos = _valida(r)
    assert set(datos) == PREVIA
    assert {k: datos[k] for k in PREVIA - {"token_confirmacion", "vence_en"}} == {
        "tipo": "Soporte tecnológico MA",
        "solicitante": "Ana Pérez",
        "asunto": ASUNTO,  # trimmed, invisible characters removed
        "descripcion": DESCRIPCION,
        "severidad": "bloqueante",
        "severidad_visible": "Bloqueante",
        "modulo": "Presupuesto",
        "requiere_confirmacion": True,
    }
    assert len(datos["token_confirmacion"]) <= 600 and FECHA.match(datos["vence_en"])
    texto = r.resultado["content"][0]["text"]
    assert ASUNTO in texto and "Bloqueante" in texto and "confirmar=true" in texto
    assert _casos() == 0
    assert ConfirmacionUsada.objects.count() == 0


def test_the_confirmation_files_the_ticket_and_answers_its_number(client, como, escenario):
    ana = escenario["ana"]
    r = _radicar(client, como(ana), severidad="mejora_grave", modulo="Presupuesto")
    datos = _valida(r)
    s = Solicitud.objects.get(tipo=escenario["mesa"])
    assert set(datos) == RADICADO
    assert datos == {
        "radicado": True,
        "numero_radicado": f"MDA-{timezone.localdate().year}-000001",
        "id_solicitud": s.pk,
        "enlace": f"/solicitudes/{s.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{s.pk}",
        "tipo": "Soporte tecnológico MA",
        "estado": "radicado",
        "etapa_actual": "Etapa 1 de Soporte tecnológico MA",
        "solicitante": "Ana Pérez",
        "asunto": ASUNTO,
        "severidad": "mejora_grave",
        "severidad_visible": "Mejora grave",
        "modulo": "Presupuesto",
        "fecha_radicacion": timezone.localtime(s.fecha_radicacion).strftime("%Y-%m-%d %H:%M"),
    }
    assert s.numero_radicado == datos["numero_radicado"]
    assert (s.solicitante, s.resumen) == (ana, ASUNTO)
    assert dict(s.campos.values_list("nombre", "valor")) == {
        "descripcion": DESCRIPCION,
        "severidad": "mejora_grave",
        "modulo": "Presupuesto",
    }
    assert datos["numero_radicado"] in r.resultado["content"][0]["text"]


def test_severity_defaults_to_error_and_module_to_empty(client, como, escenario):
    datos = _valida(_radicar(client, como(escenario["ana"])))
    assert (datos["severidad"], datos["severidad_visible"], datos["modulo"]) == (
        "error",
        "Error",
        "",
    )
    s = Solicitud.objects.get(pk=datos["id_solicitud"])
    assert s.campos.get(nombre="severidad").valor == "error"


@pytest.mark.parametrize("severidad", ["sugerencia", "error", "mejora_grave", "bloqueante"])
def test_every_severity_is_accepted(client, como, escenario, severidad):
    assert _valida(_radicar(client, como(escenario["ana"]), severidad=severidad))["severidad"] == (
        severidad
    )


# --- visibility of the new ticket from three sides ----------------------------------------------


def test_the_filer_the_help_desk_and_an_outsider_see_what_they_should(client, como, escenario):
    numero = _valida(_radicar(client, como(escenario["ana"])))["numero_radicado"]

    def resumen(usuario):
        return llamar(
            client, "resumen_solicitud", {"numero_radicado": numero}, **como(usuario)
        ).resultado

    assert resumen(escenario["ana"])["structuredContent"]["numero_radicado"] == numero
    tareas = llamar(client, "mis_tareas", {}, **como(escenario["soporte"])).estructura
    assert [t["numero_radicado"] for t in tareas["tareas"]] == [numero]
    assert resumen(escenario["soporte"])["isError"] is False
    extrano = resumen(UserFactory(permisos=[USAR, RADICAR]))
    assert extrano["isError"] is True
    assert extrano["structuredContent"]["codigo"] == "NO_ENCONTRADO"


# --- identity and permission ------------------------------------------------------------------


def test_with_the_api_key_alone_it_is_sin_identidad(client, clave, escenario):
    error_herramienta(_llamar(client, clave), "SIN_IDENTIDAD")


@pytest.mark.parametrize(
    "permisos", [[USAR], [USAR, "solicitudes.bandeja.ver", "solicitudes.ver_todas"]]
)
def test_without_solicitudes_radicar_it_is_sin_permiso(client, como, escenario, permisos):
    error_herramienta(_llamar(client, como(UserFactory(permisos=permisos))), "SIN_PERMISO")
    assert _casos() == 0


def test_the_tool_is_listed_as_a_write_with_its_schemas(client, como, escenario):
    cabeceras = como(escenario["ana"])
    herramientas = {t["name"]: t for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    h = herramientas["radicar_mesa_ayuda"]
    assert h["annotations"]["readOnlyHint"] is False
    assert h["annotations"]["idempotentHint"] is False
    assert h["outputSchema"] == registro.obtener("radicar_mesa_ayuda").esquema_salida
    propiedades = h["inputSchema"]["properties"]
    assert propiedades["severidad"]["enum"] == ["sugerencia", "error", "mejora_grave", "bloqueante"]
    assert propiedades["severidad"]["default"] == "error"
    assert h["inputSchema"]["required"] == ["asunto", "descripcion"]
    assert set(propiedades) == {
        "asunto",
        "descripcion",
        "severidad",
        "modulo",
        "confirmar",
        "token_confirmacion",
    }


def test_without_a_help_desk_type_it_is_mesa_ayuda_no_configurada(client, como, escenario):
    TipoSolicitud.objects.filter(pk=escenario["mesa"].pk).update(activo=False)
    error_herramienta(_llamar(client, como(escenario["ana"])), "MESA_AYUDA_NO_CONFIGURADA")


# --- the confirmation rules -----------------------------------------------------------------------


def test_a_reused_token_is_refused_and_files_nothing_more(client, como, escenario):
    cabeceras = como(escenario["ana"])
    token = _token(client, cabeceras)
    _valida(_confirmar(client, cabeceras, token))
    error_herramienta(_confirmar(client, cabeceras, token), "CONFIRMACION_USADA")
    assert _casos() == 1


@pytest.mark.parametrize(
    "cambio",
    [
        {"asunto": "Otro asunto distinto"},
        {"descripcion": "Otra descripción bastante distinta."},
        {"severidad": "bloqueante"},
        {"modulo": "Solicitudes"},
    ],
)
def test_arguments_changed_after_the_preview_file_nothing(client, como, escenario, cambio):
    cabeceras = como(escenario["ana"])
    token = _token(client, cabeceras)
    error_herramienta(_confirmar(client, cabeceras, token, **cambio), "CONFIRMACION_NO_COINCIDE")
    assert _casos() == 0


def test_explicit_defaults_match_the_preview_without_them(client, como, escenario):
    cabeceras = como(escenario["ana"])
    token = _token(client, cabeceras)
    _valida(_confirmar(client, cabeceras, token, severidad="error", modulo=""))
    assert _casos() == 1


def test_with_writes_disabled_it_is_escritura_deshabilitada(client, como, escenario):
    cabeceras = como(escenario["ana"])
    token = _token(client, cabeceras)
    ajustar(escrituras_habilitadas=False)
    error_herramienta(_llamar(client, cabeceras), "ESCRITURA_DESHABILITADA")
    error_herramienta(_confirmar(client, cabeceras, token), "ESCRITURA_DESHABILITADA")
    assert _casos() == 0


def test_the_seventh_confirmed_write_in_a_minute_is_rate_limit(client, como, escenario):
    cabeceras = como(escenario["ana"])
    for i in range(6):
        _valida(_radicar(client, cabeceras, asunto=f"Caso número {i}"))
    r = _radicar(client, cabeceras, asunto="Caso número 7")
    assert error_herramienta(r, "RATE_LIMIT")["reintentar_en"] >= 1
    assert _casos() == 6


def test_comments_and_tickets_share_the_write_limit(client, como, escenario):
    cabeceras = como(escenario["ana"])
    s = services.radicar(
        tipo=escenario["mesa"], solicitante=escenario["ana"], resumen="Caso previo"
    )
    for i in range(6):
        argumentos = {"numero_radicado": s.numero_radicado, "comentario": f"Seguimiento {i}"}
        token = llamar(client, "comentar_solicitud", argumentos, **cabeceras).estructura[
            "token_confirmacion"
        ]
        confirmado = llamar(
            client,
            "comentar_solicitud",
            {**argumentos, "confirmar": True, "token_confirmacion": token},
            **cabeceras,
        )
        assert confirmado.resultado["isError"] is False
    error_herramienta(_radicar(client, cabeceras), "RATE_LIMIT")
    assert _casos() == 1


# --- argument bounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cambio", "campo"),
    [
        ({"asunto": "abcd"}, "asunto"),
        ({"asunto": "x" * 151}, "asunto"),
        ({"asunto": "ab\u200b\u200b\u200bc"}, "asunto"),
        ({"descripcion": "123456789"}, "descripcion"),
        ({"descripcion": "x" * 4001}, "descripcion"),
        ({"severidad": "critica"}, "severidad"),
        ({"modulo": "x" * 121}, "modulo"),
        ({"confirmar": True, "token_confirmacion": "t" * 601}, "token_confirmacion"),
        ({"solicitante": "otra persona"}, "solicitante"),
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como, escenario, cambio, campo):
    r = _llamar(client, como(escenario["ana"]), **cambio)
    assert campo in error_herramienta(r, "DATOS_INVALIDOS")["campos"]
    assert _casos() == 0


def test_texts_at_their_maximum_lengths_are_filed(client, como, escenario):
    datos = _valida(
        _radicar(
            client,
            como(escenario["ana"]),
            asunto="A" * 150,
            descripcion="D" * 4000,
            modulo="M" * 120,
        )
    )
    s = Solicitud.objects.get(pk=datos["id_solicitud"])
    assert len(s.resumen) == 150
    assert len(s.campos.get(nombre="descripcion").valor) == 4000
    assert len(s.campos.get(nombre="modulo").valor) == 120


def test_texts_at_their_minimum_lengths_are_filed(client, como, escenario):
    datos = _valida(_radicar(client, como(escenario["ana"]), asunto="A" * 5, descripcion="D" * 10))
    assert datos["asunto"] == "AAAAA"


# --- cost ---------------------------------------------------------------------------------------


def test_the_cost_of_both_steps_does_not_grow_with_the_data(
    client, como, escenario, django_assert_num_queries
):
    ana = escenario["ana"]
    cabeceras = como(ana)
    _radicar(client, cabeceras, asunto="Calentamiento")
    with CaptureQueriesContext(connection) as previa:
        token = _token(client, cabeceras, asunto="Primera medición")
    with CaptureQueriesContext(connection) as confirmacion:
        _valida(_confirmar(client, cabeceras, token, asunto="Primera medición"))
    for i in range(8):
        s = services.radicar_mesa_ayuda(
            solicitante=ana, asunto=f"Caso de relleno {i}", descripcion=DESCRIPCION
        )
        services.comentar(solicitud=s, autor=ana, texto="Relleno")
    assert Tarea.objects.count() == 10
    with django_assert_num_queries(len(previa.captured_queries)):
        token = _token(client, cabeceras, asunto="Segunda medición")
    with django_assert_num_queries(len(confirmacion.captured_queries)):
        _valida(_confirmar(client, cabeceras, token, asunto="Segunda medición"))
    assert _casos() == 11


def test_the_audit_row_of_the_confirmation_names_the_ticket_it_filed(client, como, escenario):
    _radicar(client, como(escenario["ana"]))
    s = Solicitud.objects.get(tipo=escenario["mesa"])
    previa, confirmada = RegistroAuditoria.objects.order_by("pk")
    assert previa.objeto == {}
    assert confirmada.objeto == {
        "tipo": "solicitud",
        "texto": s.numero_radicado,
        "enlace": f"/solicitudes/{s.pk}",
    }
