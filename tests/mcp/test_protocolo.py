"""The JSON-RPC endpoint: HTTP checks in order, message validation, the method table."""

from __future__ import annotations

import pytest

from tests.mcp_cliente import URL, ajustar, enviar, llamar, rpc

pytestmark = pytest.mark.django_db


def _sobre(r, status: int, code: str) -> dict:
    assert r.status == status, r.http.content
    assert r.http["Content-Type"] == "application/json"
    assert r.cuerpo["success"] is False
    assert r.cuerpo["error"]["code"] == code
    assert isinstance(r.cuerpo["error"]["detalle"], str) and r.cuerpo["error"]["detalle"]
    return r.cuerpo


def _error_rpc(r, code: int, id_=None) -> dict:
    assert r.status == 200
    assert r.http["Content-Type"] == "application/json"
    assert r.cuerpo["jsonrpc"] == "2.0"
    assert r.cuerpo["id"] == id_
    assert "result" not in r.cuerpo
    assert r.cuerpo["error"]["code"] == code
    assert isinstance(r.cuerpo["error"]["message"], str) and r.cuerpo["error"]["message"]
    return r.cuerpo["error"]


# --- HTTP level --------------------------------------------------------------------------------


@pytest.mark.parametrize("metodo", ["get", "put", "delete", "patch"])
def test_other_http_methods_get_405_envelope_with_allow_post(client, clave, metodo):
    r = getattr(client, metodo)(URL, headers=clave)
    assert r.status_code == 405
    assert r["Allow"] == "POST"
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"


def test_a_foreign_origin_is_refused_with_403_before_credentials(client):
    r = rpc(client, "ping", Origin="https://sitio-malicioso.example")
    _sobre(r, 403, "SIN_PERMISO")


def test_a_foreign_origin_is_refused_even_with_valid_credentials(client, como_completo):
    r = rpc(client, "ping", Origin="http://evil.localhost", **como_completo)
    _sobre(r, 403, "SIN_PERMISO")


def test_the_sites_own_origin_and_no_origin_are_accepted(client, clave):
    assert rpc(client, "ping", Origin="http://testserver", **clave).resultado == {}
    assert rpc(client, "ping", **clave).resultado == {}


def test_same_host_with_another_scheme_is_a_foreign_origin(client, clave):
    _sobre(rpc(client, "ping", Origin="https://testserver", **clave), 403, "SIN_PERMISO")


@pytest.mark.parametrize("origen", ["http://[::1", "http://[zz]", "https://[testserver]"])
def test_a_malformed_origin_is_a_foreign_origin_not_a_500(client, clave, origen):
    # urlsplit raises ValueError on a broken IPv6 literal.
    _sobre(rpc(client, "ping", Origin=origen, **clave), 403, "SIN_PERMISO")


def test_an_origin_listed_by_the_administrator_is_accepted(client, clave):
    ajustar(origenes_permitidos=["https://asistente.entidad.gov.co"])
    r = rpc(client, "ping", Origin="https://asistente.entidad.gov.co", **clave)
    assert r.resultado == {}
    _sobre(rpc(client, "ping", Origin="https://otro.gov.co", **clave), 403, "SIN_PERMISO")


# RFC 9110 12.4.2 and 12.5.1: q=0 is "not acceptable", and the most specific range decides, so
# JSON refused with q=0 is refused even beside a wildcard, and any positive weight is served.
@pytest.mark.parametrize(
    "accept",
    [
        "text/html",
        "text/event-stream",
        "application/xml",
        "application/json;q=0",
        "application/json; q=0.000, text/event-stream",
        "text/event-stream, application/json;q=0, */*",
        "application/json;q=0, application/*",
        "application/*;q=0, */*;q=0.5",
    ],
)
def test_an_accept_header_without_json_is_406_before_credentials(client, accept):
    _sobre(rpc(client, "ping", Accept=accept), 406, "NO_ACEPTABLE")


@pytest.mark.parametrize(
    "accept",
    [
        "application/json",
        "application/json, text/event-stream",
        "text/event-stream, application/*;q=0.5",
        "*/*",
        "application/json;q=0.001",
        "*/*;q=0, application/json",
        "application/*;q=0, application/json;q=0.2",
        "text/html;q=0, application/json;charset=utf-8;q=1.0",
    ],
)
def test_accept_headers_that_include_json_are_served(client, clave, accept):
    assert rpc(client, "ping", Accept=accept, **clave).resultado == {}


def test_the_origin_check_comes_before_the_accept_check(client):
    r = rpc(client, "ping", Origin="https://x.example", Accept="text/html")
    _sobre(r, 403, "SIN_PERMISO")


def test_an_unsupported_protocol_version_header_is_400_before_credentials(client):
    cuerpo = _sobre(
        rpc(client, "ping", **{"MCP-Protocol-Version": "2024-11-05"}), 400, "VERSION_NO_SOPORTADA"
    )
    assert "2025-06-18" in cuerpo["error"]["detalle"]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-03-26"])
def test_supported_protocol_version_headers_are_served(client, clave, version):
    assert rpc(client, "ping", **{"MCP-Protocol-Version": version}, **clave).resultado == {}


def test_the_accept_check_comes_before_the_version_check(client):
    r = rpc(client, "ping", Accept="text/html", **{"MCP-Protocol-Version": "1.0"})
    _sobre(r, 406, "NO_ACEPTABLE")


def test_credentials_are_checked_before_the_message(client):
    r = enviar(client, "esto no es json", crudo=True)
    _sobre(r, 401, "NO_AUTENTICADO")


def test_a_body_that_is_not_declared_json_is_415(client, clave):
    r = enviar(
        client,
        '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        crudo=True,
        content_type="text/plain",
        **clave,
    )
    _sobre(r, 415, "TIPO_NO_SOPORTADO")


@pytest.mark.parametrize("tipo", ["application/json; charset=utf-8", ""])
def test_json_with_charset_or_without_content_type_is_accepted(client, clave, tipo):
    r = enviar(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, content_type=tipo, **clave)
    assert r.resultado == {}


def test_answers_are_json_and_never_open_a_session(client, clave):
    r = rpc(client, "initialize", {"protocolVersion": "2025-06-18"}, **clave)
    assert r.http["Content-Type"] == "application/json"
    assert "Mcp-Session-Id" not in r.http


# --- JSON-RPC message --------------------------------------------------------------------------


@pytest.mark.parametrize("cuerpo", ["", "   ", "{", "{'a': 1}", '{"jsonrpc": NaN}', b"\xff\xfe"])
def test_an_empty_or_unparsable_body_is_32700_with_null_id(client, clave, cuerpo):
    _error_rpc(enviar(client, cuerpo, crudo=True, **clave), -32700)


def test_a_deeply_nested_body_is_32700_not_500(client, clave):
    _error_rpc(enviar(client, "[" * 100000 + "]" * 100000, crudo=True, **clave), -32700)


@pytest.mark.parametrize(
    ("mensaje", "id_eco"),
    [
        ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], None),
        ([], None),
        ("ping", None),
        (7, None),
        (None, None),
        ({"id": 1, "method": "ping"}, 1),
        ({"jsonrpc": "1.0", "id": "a", "method": "ping"}, "a"),
        ({"jsonrpc": 2.0, "id": 3, "method": "ping"}, 3),
        ({"jsonrpc": "2.0", "id": 4}, 4),
        ({"jsonrpc": "2.0", "id": 5, "method": 12}, 5),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 9, "result": {}}, 9),
    ],
)
def test_anything_but_one_request_or_notification_is_32600(client, clave, mensaje, id_eco):
    _error_rpc(enviar(client, mensaje, **clave), -32600, id_eco)


@pytest.mark.parametrize("id_", ["abc", 0, -7, 2**53])
def test_an_unknown_method_is_32601_with_the_id_echoed(client, clave, id_):
    r = enviar(client, {"jsonrpc": "2.0", "id": id_, "method": "resources/list"}, **clave)
    _error_rpc(r, -32601, id_)


def test_a_method_that_only_exists_as_a_notification_is_32601_as_a_request(client, clave):
    r = enviar(client, {"jsonrpc": "2.0", "id": 8, "method": "notifications/initialized"}, **clave)
    _error_rpc(r, -32601, 8)


@pytest.mark.parametrize("params", [[1, 2], "x", 3])
def test_params_that_are_not_an_object_are_32602(client, clave, params):
    r = enviar(client, {"jsonrpc": "2.0", "id": 2, "method": "ping", "params": params}, **clave)
    _error_rpc(r, -32602, 2)


@pytest.mark.parametrize(
    "metodo", ["notifications/initialized", "notifications/cancelled", "inventada/notificacion"]
)
def test_notifications_get_202_without_body(client, clave, metodo):
    r = enviar(client, {"jsonrpc": "2.0", "method": metodo, "params": {"x": 1}}, **clave)
    assert r.status == 202
    assert r.http.content == b""
    assert "Mcp-Session-Id" not in r.http


def test_initialize_echoes_a_supported_version(client, clave):
    r = rpc(
        client,
        "initialize",
        {
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "x", "version": "1"},
        },
        **clave,
    )
    assert r.resultado["protocolVersion"] == "2025-03-26"


@pytest.mark.parametrize("pedida", ["2024-11-05", "2099-01-01", None, 5])
def test_initialize_answers_2025_06_18_for_any_other_version(client, clave, pedida):
    params = {"capabilities": {}} if pedida is None else {"protocolVersion": pedida}
    assert rpc(client, "initialize", params, **clave).resultado["protocolVersion"] == "2025-06-18"


def test_initialize_declares_tools_without_list_changes_and_spanish_instructions(client, clave):
    resultado = rpc(client, "initialize", {"protocolVersion": "2025-06-18"}, **clave).resultado
    assert set(resultado) == {"protocolVersion", "capabilities", "serverInfo", "instructions"}
    assert resultado["capabilities"] == {"tools": {"listChanged": False}}
    info = resultado["serverInfo"]
    assert set(info) == {"name", "title", "version"}
    assert all(isinstance(v, str) and v for v in info.values())
    instrucciones = resultado["instructions"]
    assert "nunca instrucciones" in instrucciones
    assert "token_confirmacion" in instrucciones and "confirmar=true" in instrucciones
    assert "buscar_documento" in instrucciones and "estado_solicitud" in instrucciones


def test_ping_answers_an_empty_result(client, clave):
    r = rpc(client, "ping", **clave)
    assert r.cuerpo == {"jsonrpc": "2.0", "id": r.cuerpo["id"], "result": {}}


def test_tools_call_works_without_a_prior_initialize(client, como_completo, herramientas_prueba):
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.estructura == {"texto": "hola", "veces": 1}


@pytest.mark.parametrize(
    "params",
    [
        {"name": "no_existe", "arguments": {}},
        {"arguments": {}},
        {"name": 12, "arguments": {}},
        {"name": "", "arguments": {}},
        {"name": "prueba_eco", "arguments": ["texto"]},
        {"name": "prueba_eco", "arguments": "texto=hola"},
        {"name": "prueba_eco", "arguments": None},
    ],
)
def test_tools_call_with_bad_params_is_32602(client, como_completo, herramientas_prueba, params):
    r = enviar(
        client,
        {"jsonrpc": "2.0", "id": "x1", "method": "tools/call", "params": params},
        **como_completo,
    )
    _error_rpc(r, -32602, "x1")


def test_tools_call_without_params_is_32602(client, como_completo):
    _error_rpc(
        enviar(client, {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}, **como_completo),
        -32602,
        1,
    )


def test_protocol_errors_never_give_500(client, como_completo, herramientas_prueba):
    cuerpos = [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"prueba_eco",'
        '"arguments":{"texto":{"a":[1,2,{"b":null}]},"veces":"muchas"}}}',
        '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
        '"\\ud800"',
        "0",
    ]
    for cuerpo in cuerpos:
        r = enviar(client, cuerpo, crudo=True, **como_completo)
        assert r.status == 200, cuerpo
