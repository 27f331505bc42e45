"""MCP revision 2026-07-28 on the same endpoint: its envelope, headers, result fields, protocol
errors with HTTP statuses of their own, and the answer to a version the hub does not speak."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import Group

from apps.mcp import revisiones
from apps.mcp.models import Aprobacion, RegistroAuditoria
from hub.http.enlaces import absoluta
from tests.mcp_cliente import ajustar, enviar, llamar, rpc

pytestmark = pytest.mark.django_db

VERSION = "2026-07-28"
_ids = itertools.count(1000)
SIN_ELICITACION: dict[str, Any] = {}
CON_URL = {"elicitation": {"url": {}, "form": {}}}
SOLO_FORMULARIO = {"elicitation": {"form": {}}}


def _meta(version: str = VERSION, capacidades: dict | None = None) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": capacidades or {},
        "io.modelcontextprotocol/clientInfo": {"name": "prueba", "version": "1"},
    }


def moderna(
    client,
    metodo: str,
    params: dict | None = None,
    *,
    capacidades: dict | None = None,
    cabeceras: dict[str, str] | None = None,
    **credencial: str,
):
    """One 2026-07-28 request: the envelope in `_meta` and the headers that mirror the body."""
    params = {**(params or {}), "_meta": _meta(capacidades=capacidades)}
    propias = {"MCP-Protocol-Version": VERSION, "Mcp-Method": metodo}
    if metodo == "tools/call":
        propias["Mcp-Name"] = params.get("name", "")
    propias.update(cabeceras or {})
    propias = {k: v for k, v in propias.items() if v is not None}
    mensaje = {"jsonrpc": "2.0", "id": next(_ids), "method": metodo, "params": params}
    return enviar(client, mensaje, **propias, **credencial)


def _error(r, status: int, codigo: int) -> dict:
    assert r.status == status, r.http.content
    assert r.http["Content-Type"] == "application/json"
    assert r.cuerpo["jsonrpc"] == "2.0"
    assert "result" not in r.cuerpo
    assert r.cuerpo["error"]["code"] == codigo
    assert isinstance(r.cuerpo["error"]["message"], str) and r.cuerpo["error"]["message"]
    return r.cuerpo


# --- server/discover ---------------------------------------------------------------------------


def test_server_discover_names_both_revisions_the_capabilities_and_the_server(client, clave):
    r = moderna(client, "server/discover", **clave)
    assert r.status == 200
    assert "Mcp-Session-Id" not in r.http
    resultado = r.resultado
    assert resultado["resultType"] == "complete"
    assert resultado["supportedVersions"] == ["2026-07-28", "2025-06-18", "2025-03-26"]
    assert resultado["capabilities"] == {"tools": {"listChanged": False}}
    assert resultado["instructions"].startswith("Servidor del hub institucional.")
    assert resultado["ttlMs"] == 300_000
    assert resultado["cacheScope"] == "public"
    servidor = resultado["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert servidor["name"] == "hub-mcp"
    assert servidor["title"] == "Asistente del hub institucional"


def test_server_discover_needs_credentials_like_every_other_method(client):
    r = moderna(client, "server/discover")
    assert r.status == 401
    assert r.cuerpo["error"]["code"] == "NO_AUTENTICADO"


# --- tools/list and tools/call -----------------------------------------------------------------


def test_tools_list_is_the_same_list_with_a_private_cache_hint(client, como_completo):
    r = moderna(client, "tools/list", **como_completo)
    antes = rpc(client, "tools/list", **como_completo).resultado
    assert r.resultado == {
        **antes,
        "resultType": "complete",
        "ttlMs": 60_000,
        "cacheScope": "private",
    }


def test_tools_call_is_the_same_result_with_result_type_complete(
    client, clave, herramientas_prueba
):
    r = moderna(client, "tools/call", {"name": "prueba_publica", "arguments": {}}, **clave)
    antes = llamar(client, "prueba_publica", {}, **clave).resultado
    assert r.resultado == {**antes, "resultType": "complete"}


def test_a_tool_error_stays_a_result_with_http_200(client, clave):
    r = moderna(client, "tools/call", {"name": "comentar_solicitud", "arguments": {}}, **clave)
    assert r.status == 200
    assert r.resultado["isError"] is True
    assert r.resultado["resultType"] == "complete"
    assert r.resultado["structuredContent"]["codigo"] == "SIN_IDENTIDAD"


def test_an_unknown_tool_is_invalid_params_with_400_and_audited(client, clave):
    r = moderna(client, "tools/call", {"name": "no_existe", "arguments": {}}, **clave)
    _error(r, 400, -32602)
    assert RegistroAuditoria.objects.filter(resultado="PARAMETROS_INVALIDOS").count() == 1


# --- protocol errors with statuses of their own ------------------------------------------------


@pytest.mark.parametrize("metodo", ["initialize", "ping", "resources/list", "nada"])
def test_a_method_this_revision_does_not_have_is_404_method_not_found(client, clave, metodo):
    r = moderna(client, metodo, **clave)
    cuerpo = _error(r, 404, -32601)
    assert cuerpo["id"] is not None


def test_malformed_json_is_a_parse_error_with_400(client, clave):
    r = enviar(client, "{no", crudo=True, **{"MCP-Protocol-Version": VERSION}, **clave)
    assert _error(r, 400, -32700)["id"] is None


def test_a_batch_is_an_invalid_request_with_400(client, clave):
    r = enviar(client, [{"jsonrpc": "2.0"}], **{"MCP-Protocol-Version": VERSION}, **clave)
    _error(r, 400, -32600)


def test_a_request_without_the_envelope_is_invalid_params_with_400(client, clave):
    mensaje = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    cabeceras = {"MCP-Protocol-Version": VERSION, "Mcp-Method": "tools/list"}
    _error(enviar(client, mensaje, **cabeceras, **clave), 400, -32602)


def test_missing_client_capabilities_in_the_envelope_is_invalid_params(client, clave):
    meta = {"io.modelcontextprotocol/protocolVersion": VERSION}
    mensaje = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    cabeceras = {"MCP-Protocol-Version": VERSION, "Mcp-Method": "tools/list"}
    _error(enviar(client, mensaje, **cabeceras, **clave), 400, -32602)


@pytest.mark.parametrize(
    "cabeceras",
    [
        {"Mcp-Method": None},
        {"Mcp-Method": "tools/list"},
        {"Mcp-Name": None},
        {"Mcp-Name": "buscar_documento"},
    ],
)
def test_headers_that_disagree_with_the_body_are_header_mismatch_with_400(client, clave, cabeceras):
    params = {"name": "prueba_publica", "arguments": {}}
    r = moderna(client, "tools/call", params, cabeceras=cabeceras, **clave)
    _error(r, 400, -32020)
    assert not RegistroAuditoria.objects.exists()


def test_mcp_name_may_travel_in_its_base64_form(client, clave, herramientas_prueba):
    params = {"name": "prueba_publica", "arguments": {}}
    base64 = "=?base64?cHJ1ZWJhX3B1YmxpY2E=?="
    r = moderna(client, "tools/call", params, cabeceras={"Mcp-Name": base64}, **clave)
    assert r.resultado["isError"] is False


def test_an_envelope_version_other_than_the_header_is_header_mismatch(client, clave):
    mensaje = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {"_meta": _meta(version="2027-01-01")},
    }
    cabeceras = {"MCP-Protocol-Version": VERSION, "Mcp-Method": "tools/list"}
    _error(enviar(client, mensaje, **cabeceras, **clave), 400, -32020)


def test_a_notification_is_accepted_with_202_and_no_body(client, clave):
    mensaje = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}
    r = enviar(client, mensaje, **{"MCP-Protocol-Version": VERSION}, **clave)
    assert r.status == 202
    assert r.http.content == b""


# --- versions the hub does not speak -----------------------------------------------------------


def test_an_unknown_version_in_the_new_envelope_gets_32022_with_the_versions_spoken(client):
    mensaje = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "server/discover",
        "params": {"_meta": _meta(version="2027-01-01")},
    }
    cabeceras = {"MCP-Protocol-Version": "2027-01-01", "Mcp-Method": "server/discover"}
    cuerpo = _error(enviar(client, mensaje, **cabeceras), 400, -32022)
    assert cuerpo["id"] == 7
    assert cuerpo["error"]["data"] == {
        "supported": ["2026-07-28", "2025-06-18", "2025-03-26"],
        "requested": "2027-01-01",
    }


def test_an_unknown_version_without_the_envelope_keeps_the_2025_answer(client, clave):
    r = rpc(client, "ping", **{"MCP-Protocol-Version": "2025-11-25"}, **clave)
    assert r.status == 400
    assert r.cuerpo["error"]["code"] == "VERSION_NO_SOPORTADA"


def test_the_2025_revision_ignores_the_new_headers_and_keeps_ping(client, clave):
    r = rpc(client, "ping", **{"MCP-Protocol-Version": "2025-06-18", "Mcp-Method": "x"}, **clave)
    assert r.cuerpo == {"jsonrpc": "2.0", "id": r.cuerpo["id"], "result": {}}
    r = rpc(client, "server/discover", **clave)
    assert r.status == 200
    assert r.cuerpo["error"]["code"] == -32601


# --- asking the person: URL elicitation of the approval page -----------------------------------


def _previa(client, cabeceras, capacidades):
    params = {"name": "prueba_grupo", "arguments": {"nombre": "Comité 2026"}}
    return moderna(client, "tools/call", params, capacidades=capacidades, **cabeceras)


def _reintento(client, cabeceras, estado: str, respuesta: dict):
    params = {
        "name": "prueba_grupo",
        "arguments": {"nombre": "Comité 2026"},
        "inputResponses": {"aprobacion": respuesta},
        "requestState": estado,
    }
    return moderna(client, "tools/call", params, capacidades=CON_URL, **cabeceras)


def test_with_hub_approval_and_url_elicitation_the_preview_asks_for_the_approval_page(
    client, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    r = _previa(client, como_completo, CON_URL)
    resultado = r.resultado
    fila = Aprobacion.objects.get()
    assert resultado["resultType"] == "input_required"
    assert set(resultado) == {"resultType", "inputRequests", "requestState"}
    pedido = resultado["inputRequests"]["aprobacion"]
    assert pedido["method"] == "elicitation/create"
    assert pedido["params"]["mode"] == "url"
    assert pedido["params"]["url"] == absoluta(f"/mcp/aprobaciones/{fila.clave}/")
    assert pedido["params"]["message"]
    # The request state is the encrypted confirmation token, never readable by the client.
    assert (
        revisiones.con_estado_de_aprobacion(
            {"name": "prueba_grupo", "arguments": {}, "requestState": resultado["requestState"]}
        )["arguments"]["token_confirmacion"]
        == resultado["requestState"]
    )
    assert "Comité" not in resultado["requestState"]


def test_the_clients_accept_never_counts_as_the_persons_approval(
    client, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    estado = _previa(client, como_completo, CON_URL).resultado["requestState"]
    formulario = {"action": "accept", "content": {"aprobar": True}}
    r = _reintento(client, como_completo, estado, formulario)
    assert r.resultado["resultType"] == "input_required"
    assert r.resultado["requestState"] == estado
    assert not Group.objects.filter(name="Comité 2026").exists()
    assert RegistroAuditoria.objects.filter(resultado="APROBACION_PENDIENTE").count() == 1


def test_once_approved_on_the_hub_the_retry_writes_once(client, como_completo, herramientas_prueba):
    ajustar(aprobar_en_el_hub=True)
    estado = _previa(client, como_completo, CON_URL).resultado["requestState"]
    Aprobacion.objects.update(estado=Aprobacion.Estado.APROBADA)
    r = _reintento(client, como_completo, estado, {"action": "accept"})
    assert r.resultado["resultType"] == "complete"
    assert r.resultado["isError"] is False
    assert Group.objects.filter(name="Comité 2026").count() == 1
    escritura = RegistroAuditoria.objects.filter(resultado="ok").order_by("id").last()
    assert escritura.argumentos == {
        "nombre": "Comité 2026",
        "confirmar": True,
        "aprobada_en_el_hub": True,
    }
    otra = _reintento(client, como_completo, estado, {"action": "accept"})
    assert otra.resultado["structuredContent"]["codigo"] == "CONFIRMACION_USADA"


def test_a_rejection_on_the_hub_ends_the_loop_with_the_tool_error(
    client, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    estado = _previa(client, como_completo, CON_URL).resultado["requestState"]
    Aprobacion.objects.update(estado=Aprobacion.Estado.RECHAZADA)
    r = _reintento(client, como_completo, estado, {"action": "accept"})
    assert r.resultado["resultType"] == "complete"
    assert r.resultado["structuredContent"]["codigo"] == "APROBACION_RECHAZADA"


def test_a_forged_request_state_is_an_invalid_confirmation(
    client, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    r = _reintento(client, como_completo, "inventado", {"action": "accept"})
    assert r.resultado["structuredContent"]["codigo"] == "CONFIRMACION_INVALIDA"
    assert not Group.objects.exists()


@pytest.mark.parametrize("capacidades", [SIN_ELICITACION, SOLO_FORMULARIO])
def test_without_url_elicitation_the_token_flow_is_unchanged(
    client, como_completo, herramientas_prueba, capacidades
):
    ajustar(aprobar_en_el_hub=True)
    r = _previa(client, como_completo, capacidades)
    datos = r.resultado["structuredContent"]
    assert r.resultado["resultType"] == "complete"
    assert datos["requiere_confirmacion"] is True
    assert datos["aprobacion"]["url"].endswith(
        f"/mcp/aprobaciones/{Aprobacion.objects.get().clave}/"
    )


def test_with_hub_approval_off_a_url_client_gets_the_token_flow(
    client, como_completo, herramientas_prueba
):
    r = _previa(client, como_completo, CON_URL)
    datos = r.resultado["structuredContent"]
    assert r.resultado["resultType"] == "complete"
    assert datos["requiere_confirmacion"] is True
    assert "aprobacion" not in datos


def test_a_pending_confirmation_by_token_also_asks_for_the_page(
    client, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    token = _previa(client, como_completo, {}).resultado["structuredContent"]["token_confirmacion"]
    argumentos = {"nombre": "Comité 2026", "confirmar": True, "token_confirmacion": token}
    params = {"name": "prueba_grupo", "arguments": argumentos}
    r = moderna(client, "tools/call", params, capacidades=CON_URL, **como_completo)
    assert r.resultado["resultType"] == "input_required"
    assert r.resultado["requestState"] == token
