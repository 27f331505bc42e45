"""Hostile bodies (too large, nested 100000 levels, huge numbers, lone surrogates) are refused
cleanly by the assistant endpoint and the public contact endpoint: an envelope or a JSON-RPC /
tool error, never a 500, the process keeps serving, and no domain row is written."""

from __future__ import annotations

import io
import json
from contextlib import contextmanager

import pytest

from apps.mcp.models import RegistroAuditoria
from apps.notificaciones.models import MensajeContacto
from apps.solicitudes.models import Comentario, Solicitud
from hub.http import chunked
from hub.models import Limites
from tests.mcp_cliente import URL
from tests.notificaciones.factories import SitioContactoFactory
from tests.seguridad import como, mundo
from tests.solicitudes.factories import tipo_con_etapas

pytestmark = pytest.mark.django_db

CONTACTO = "/notificaciones/api/public/v1/contacto"
DOS_MB = 2 * 1024 * 1024
PROFUNDO = [
    "[" * 100000,
    "[" * 100000 + "]" * 100000,
    '{"a":' * 100000 + "1" + "}" * 100000,
]
ENORMES = ["1e999999", "-1e999999", "9" * 10000]


@pytest.fixture
def m():
    datos = mundo()
    tipo_con_etapas(datos["tipo"].etapas.first().rol, nombre="Mesa Seguridad", es_mesa_ayuda=True)
    return datos


@pytest.fixture
def portal():
    Limites.cargar()
    return SitioContactoFactory(codigo="portal", nombre="Portal", correo_destino="c@entidad.gov.co")


def _conteos() -> tuple[int, int, int]:
    return Comentario.objects.count(), Solicitud.objects.count(), MensajeContacto.objects.count()


@contextmanager
def _nada_escrito():
    antes = _conteos()
    yield
    assert _conteos() == antes


def _mcp(client, cuerpo: str | bytes, cabeceras: dict):
    r = client.post(URL, data=cuerpo, content_type="application/json", headers=cabeceras)
    assert r.status_code < 500, r.content[:500]
    return r


def _contacto(client, cuerpo: str | bytes):
    r = client.post(
        CONTACTO, data=cuerpo, content_type="application/json", REMOTE_ADDR="203.0.113.9"
    )
    assert r.status_code < 500, r.content[:500]
    return r


def _sigue_vivo(client, cabeceras) -> None:
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"})
    r = _mcp(client, cuerpo, cabeceras)
    assert r.json() == {"jsonrpc": "2.0", "id": 9, "result": {}}


def _llamada(nombre: str, argumentos_crudos: str) -> str:
    """A tools/call whose `arguments` object is written by hand (values JSON cannot round-trip)."""
    params = '{"name":"' + nombre + '","arguments":' + argumentos_crudos + "}"
    return '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":' + params + "}"


def _contacto_crudo(**reemplazos: str) -> str:
    campos = {
        "nombre": '"Ana Pérez"',
        "correo": '"ana@correo.example"',
        "asunto": '"Consulta sobre un trámite"',
        "mensaje": '"Quisiera saber cómo radicar un certificado."',
        "sitio": '"portal"',
    }
    campos.update(reemplazos)
    return "{" + ",".join(f'"{k}":{v}' for k, v in campos.items()) + "}"


# --- size --------------------------------------------------------------------------------------


def test_a_two_megabyte_body_is_413_on_the_assistant(client, m):
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "x": "a" * DOS_MB})
    with _nada_escrito():
        r = _mcp(client, cuerpo, como(m["duena"]))
    assert r.status_code == 413
    assert r.json()["success"] is False
    assert r.json()["error"]["code"] == "PAYLOAD_DEMASIADO_GRANDE"
    _sigue_vivo(client, como(m["duena"]))


def test_a_two_megabyte_body_is_413_on_the_contact_form(client, portal):
    cuerpo = _contacto_crudo(mensaje=json.dumps("a" * DOS_MB))
    with _nada_escrito():
        r = _contacto(client, cuerpo)
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "PAYLOAD_DEMASIADO_GRANDE"


# --- Transfer-Encoding: chunked ---------------------------------------------------------------
# The WSGI server (gunicorn) hands over a de-chunked wsgi.input with no CONTENT_LENGTH; the test
# client cannot chunk, so these build that request by hand (tests/seguridad/test_bordes_servidor.py
# sends real chunked requests to a real gunicorn). The client's handler is put behind the same
# reading of the body hub.wsgi puts in front of Django's (hub.http.chunked.PorPartes).


def _por_partes(client):
    atender = client.handler

    def leer_y_atender(environ):
        chunked.leer(environ)
        return atender(environ)

    client.handler = leer_y_atender
    return client


def _chunked(client, ruta: str, cuerpo: bytes, **extra):
    r = _por_partes(client).generic(
        "POST",
        ruta,
        b"",
        CONTENT_TYPE="application/json",
        **{"wsgi.input": io.BytesIO(cuerpo), "HTTP_TRANSFER_ENCODING": "chunked", **extra},
    )
    assert r.status_code < 500, r.content[:500]
    return r


def test_a_chunked_body_reaches_the_assistant(client, m):
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}).encode()
    r = _chunked(client, URL, cuerpo, headers=como(m["duena"]))
    assert r.status_code == 200
    assert r.json() == {"jsonrpc": "2.0", "id": 7, "result": {}}


def test_a_chunked_body_reaches_the_contact_form(client, portal):
    r = _chunked(client, CONTACTO, _contacto_crudo().encode(), REMOTE_ADDR="203.0.113.9")
    assert r.status_code == 201, r.content
    assert MensajeContacto.objects.get().asunto == "Consulta sobre un trámite"


def test_a_chunked_body_past_the_limit_is_413_and_nothing_is_written(client, m, settings):
    settings.HUB_MAX_CUERPO = 4096
    cuerpo = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "x": "a" * 4096}).encode()
    with _nada_escrito():
        r = _chunked(client, URL, cuerpo, headers=como(m["duena"]))
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "PAYLOAD_DEMASIADO_GRANDE"
    # Exactly at the limit is still read.
    justo = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode()
    justo = justo[:-1] + b" " * (4096 - len(justo)) + b"}"
    assert len(justo) == 4096
    r = _chunked(client, URL, justo, headers=como(m["duena"]))
    assert r.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_a_chunked_body_past_the_limit_outside_the_api_is_413_too(client, settings):
    settings.HUB_MAX_CUERPO = 4096
    r = _por_partes(client).generic(
        "POST",
        "/cuentas/login/",
        b"",
        CONTENT_TYPE="application/x-www-form-urlencoded",
        **{"wsgi.input": io.BytesIO(b"a" * 5000), "HTTP_TRANSFER_ENCODING": "chunked"},
    )
    assert r.status_code == 413


# --- depth -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cuerpo", PROFUNDO, ids=["abierto", "cerrado", "objetos"])
def test_json_nested_100000_levels_is_a_parse_error_on_the_assistant(client, m, cuerpo):
    cabeceras = como(m["duena"])
    with _nada_escrito():
        r = _mcp(client, cuerpo, cabeceras)
    assert r.status_code == 200
    assert r.json()["error"]["code"] in (-32700, -32600)
    _sigue_vivo(client, cabeceras)


def test_nested_arguments_within_the_parsers_reach_are_a_tool_error(client, m):
    cabeceras = como(m["duena"])
    # Well inside the recursion limit whatever the caller's stack (xdist adds frames).
    profundo = "[" * 200 + '"x"' + "]" * 200
    with _nada_escrito():
        r = _mcp(
            client,
            _llamada("comentar_solicitud", '{"numero_radicado":' + profundo + "}"),
            cabeceras,
        )
    assert r.status_code == 200
    resultado = r.json()["result"]
    assert resultado["isError"] is True
    assert resultado["structuredContent"]["codigo"] == "DATOS_INVALIDOS"
    _sigue_vivo(client, cabeceras)


@pytest.mark.parametrize("cuerpo", PROFUNDO, ids=["abierto", "cerrado", "objetos"])
def test_json_nested_100000_levels_is_a_400_envelope_on_the_contact_form(client, portal, cuerpo):
    with _nada_escrito():
        r = _contacto(client, cuerpo)
    assert r.status_code == 400
    assert r.json()["success"] is False
    assert r.json()["error"]["code"] == "JSON_INVALIDO"
    # The process still serves the next person.
    assert _contacto(client, _contacto_crudo()).status_code == 201


# --- huge numbers ------------------------------------------------------------------------------


def _refusal_limpio(r) -> None:
    """A JSON-RPC error or a tool error DATOS_INVALIDOS / NO_ENCONTRADO, at HTTP 200."""
    assert r.status_code == 200, r.content[:500]
    cuerpo = r.json()
    if "error" in cuerpo:
        assert cuerpo["error"]["code"] in (-32700, -32600, -32602)
    else:
        assert cuerpo["result"]["isError"] is True
        assert cuerpo["result"]["structuredContent"]["codigo"] in (
            "DATOS_INVALIDOS",
            "NO_ENCONTRADO",
        )


@pytest.mark.parametrize("numero", ENORMES, ids=["infinito", "menos_infinito", "diez_mil_cifras"])
@pytest.mark.parametrize(
    "nombre,plantilla",
    [
        ("estado_cdp", '{"numero":%s}'),
        ("estado_solicitud", '{"numero_radicado":%s}'),
        ("comentar_solicitud", '{"numero_radicado":"SOL-2026-000001","comentario":%s}'),
        (
            "radicar_mesa_ayuda",
            '{"asunto":"No abre el tablero","descripcion":"El tablero no abre hoy.","modulo":"x",'
            '"severidad":%s}',
        ),
    ],
)
def test_huge_numbers_in_arguments_are_refused_cleanly(client, m, nombre, plantilla, numero):
    cabeceras = como(m["duena"])
    with _nada_escrito():
        r = _mcp(client, _llamada(nombre, plantilla.replace("%s", numero)), cabeceras)
    _refusal_limpio(r)
    _sigue_vivo(client, cabeceras)


@pytest.mark.parametrize("numero", ENORMES, ids=["infinito", "menos_infinito", "diez_mil_cifras"])
def test_a_huge_number_as_the_json_rpc_id_is_an_invalid_request(client, m, numero):
    cuerpo = '{"jsonrpc":"2.0","id":' + numero + ',"method":"ping"}'
    r = _mcp(client, cuerpo, como(m["duena"]))
    assert r.status_code == 200
    assert r.json()["error"]["code"] in (-32700, -32600)


@pytest.mark.parametrize("numero", ENORMES, ids=["infinito", "menos_infinito", "diez_mil_cifras"])
@pytest.mark.parametrize("campo", ["nombre", "correo", "asunto", "mensaje", "sitio"])
def test_huge_numbers_in_the_contact_form_are_refused(client, portal, campo, numero):
    with _nada_escrito():
        r = _contacto(client, _contacto_crudo(**{campo: numero}))
    assert r.status_code in (400, 422), r.content
    codigo = r.json()["error"]["code"]
    assert codigo == ("JSON_INVALIDO" if r.status_code == 400 else "DATOS_INVALIDOS")
    if r.status_code == 422:
        assert list(r.json()["error"]["campos"]) == [campo]


# --- lone surrogates ---------------------------------------------------------------------------


def _datos_invalidos(r, campos: set[str]) -> None:
    """A tool error DATOS_INVALIDOS naming the offending arguments (not -32700 for the message)."""
    assert r.status_code == 200, r.content[:500]
    cuerpo = r.json()
    assert "error" not in cuerpo, cuerpo
    resultado = cuerpo["result"]
    assert resultado["isError"] is True
    assert resultado["structuredContent"]["codigo"] == "DATOS_INVALIDOS"
    assert set(resultado["structuredContent"]["campos"]) == campos


@pytest.mark.parametrize(
    "nombre,argumentos,campos",
    [
        ("estado_solicitud", '{"numero_radicado":"SOL-2026-\\ud800"}', {"numero_radicado"}),
        ("estado_cdp", '{"numero":"CDP-\\udfff-1"}', {"numero"}),
        (
            "comentar_solicitud",
            '{"numero_radicado":"%s","comentario":"Hola \\ud800 mundo"}',
            {"comentario"},
        ),
        (
            "radicar_mesa_ayuda",
            '{"asunto":"Falla \\ud800 grave","descripcion":"El tablero \\udc00 no abre hoy.",'
            '"modulo":"Presupuesto"}',
            {"asunto", "descripcion"},
        ),
        (
            "busqueda_global",
            '{"texto":"presupuesto","ambitos":["solicitudes","\\ud800"]}',
            {"ambitos"},
        ),
    ],
)
def test_lone_surrogates_in_arguments_are_a_tool_error_and_nothing_is_written(
    client, m, nombre, argumentos, campos
):
    cabeceras = como(m["duena"])
    if "%s" in argumentos:
        argumentos = argumentos.replace("%s", m["propia"].numero_radicado)
    with _nada_escrito():
        r = _mcp(client, _llamada(nombre, argumentos), cabeceras)
    _datos_invalidos(r, campos)
    _sigue_vivo(client, cabeceras)


def test_a_lone_surrogate_argument_is_audited_without_it(client, m):
    cabeceras = como(m["duena"])
    _mcp(client, _llamada("estado_cdp", '{"numero":"CDP-\\udfff-1"}'), cabeceras)
    fila = RegistroAuditoria.objects.get()
    assert (fila.herramienta, fila.resultado) == ("estado_cdp", "DATOS_INVALIDOS")
    assert fila.argumentos == {"numero": "CDP--1"}


def test_a_lone_surrogate_as_a_tool_name_is_invalid_params(client, m):
    cuerpo = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"\\ud800"}}'
    r = _mcp(client, cuerpo, como(m["duena"]))
    assert r.status_code == 200
    assert r.json()["error"]["code"] in (-32700, -32602)


@pytest.mark.parametrize("campo", ["nombre", "asunto", "mensaje"])
def test_a_lone_surrogate_in_the_contact_form_never_reaches_the_database(client, portal, campo):
    valor = {
        "nombre": '"Ana \\ud800Pérez"',
        "asunto": '"Consulta \\udfffsobre un trámite"',
        "mensaje": '"Quisiera saber \\ud800cómo radicar un certificado."',
    }[campo]
    r = _contacto(client, _contacto_crudo(**{campo: valor}))
    # The form drops invisible characters (surrogates included) and accepts the rest as written.
    assert r.status_code == 201, r.content
    guardado = MensajeContacto.objects.get()
    texto = getattr(guardado, campo)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in texto)
    assert texto in (
        "Ana Pérez",
        "Consulta sobre un trámite",
        "Quisiera saber cómo radicar un certificado.",
    )


def test_a_lone_surrogate_as_an_argument_name_is_a_tool_error(client, m):
    cabeceras = como(m["duena"])
    argumentos = '{"numero_radicado":"SOL-1","a\\ud800":1}'
    with _nada_escrito():
        r = _mcp(client, _llamada("estado_solicitud", argumentos), cabeceras)
    # The name is answered without the surrogate, which UTF-8 cannot carry.
    _datos_invalidos(r, {"a\ufffd"})


def test_a_lone_surrogate_outside_the_arguments_is_still_a_parse_error(client, m):
    cabeceras = como(m["duena"])
    for cuerpo in (
        '{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\udfff"}}',
    ):
        r = _mcp(client, cuerpo, cabeceras)
        assert r.json()["error"]["code"] == -32700
