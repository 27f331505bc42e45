"""The official Python SDK 2.3 speaking MCP 2026-07-28 to a live server: in its default mode it
settles in one round trip (server/discover, no initialize, no error), and pinned to 2026-07-28 it
never probes; through a personal token and through OAuth it lists and calls every tool and both
writes; with the hub's approval on, the person is sent to the approval page by URL elicitation."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitResult

from apps.mcp import aprobaciones
from apps.mcp.models import AjustesAsistente, Aprobacion, RegistroAuditoria
from apps.solicitudes import services
from tests.argumentos_demo import argumentos_demo
from tests.factories import GroupFactory
from tests.mcp.test_oauth_sdk import Memoria, Persona, hub, proveedor_sdk  # noqa: F401 (fixture)
from tests.mcp_cliente import cargar_demo
from tests.solicitudes.factories import tipo_con_etapas

pytestmark = pytest.mark.django_db(transaction=True)

ESCRITURAS = ("comentar_solicitud", "radicar_mesa_ayuda")
MODOS = ["auto", "2026-07-28"]


def _traza(registro: list[tuple[int, str | None, str | None]]):
    async def respuesta(r: httpx2.Response) -> None:
        if r.request.url.path == "/mcp/api/mcp":
            cabeceras = r.request.headers
            registro.append((r.status_code, cabeceras.get("mcp-method"), cabeceras.get("mcp-name")))

    return respuesta


async def _todas(url: str, http: httpx2.AsyncClient, modo: str, argumentos: dict) -> dict:
    async with Client(streamable_http_client(url, http_client=http), mode=modo) as cliente:
        listadas = {h.name for h in (await cliente.list_tools()).tools}
        resultados = {n: await cliente.call_tool(n, a) for n, a in argumentos.items()}
        escritas = {}
        for nombre in ESCRITURAS:
            token = resultados[nombre].structured_content["token_confirmacion"]
            confirmar = {**argumentos[nombre], "confirmar": True, "token_confirmacion": token}
            escritas[nombre] = await cliente.call_tool(nombre, confirmar)
        return {
            "version": cliente.protocol_version,
            "servidor": cliente.server_info,
            "listadas": listadas,
            "resultados": resultados,
            "escritas": escritas,
        }


@pytest.mark.parametrize("modo", MODOS)
def test_the_python_sdk_lists_and_calls_every_tool_and_both_writes_with_a_personal_token(
    live_server, tmp_path, modo
):
    demo = cargar_demo(tmp_path, 1)
    argumentos = argumentos_demo(demo)
    cabeceras = {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]}
    traza: list[tuple[int, str | None, str | None]] = []

    async def conversar() -> dict:
        async with httpx2.AsyncClient(
            headers=cabeceras, timeout=60, event_hooks={"response": [_traza(traza)]}
        ) as http:
            return await _todas(f"{live_server.url}/mcp/api/mcp", http, modo, argumentos)

    r = asyncio.run(conversar())
    assert r["version"] == "2026-07-28"
    if modo == "auto":  # pinned, the SDK never asks who the server is
        assert r["servidor"].name == "hub-mcp"
    assert r["listadas"] == set(argumentos)
    for nombre, resultado in r["resultados"].items():
        assert resultado.is_error is False, (nombre, resultado.structured_content)
        assert len(resultado.content) == 2
    for nombre, resultado in r["escritas"].items():
        assert resultado.is_error is False, (nombre, resultado.structured_content)
    assert RegistroAuditoria.objects.filter(argumentos__confirmar=True, resultado="ok").count() == 2
    # Every exchange answered 200; auto mode settled with one server/discover, pinned never probed.
    assert {s for s, _m, _n in traza} == {200}
    metodos = [m for _s, m, _n in traza]
    assert "initialize" not in metodos and None not in metodos
    assert metodos.count("server/discover") == (1 if modo == "auto" else 0)
    llamadas = [n for _s, m, n in traza if m == "tools/call"]
    assert llamadas == [*argumentos, *ESCRITURAS]  # Mcp-Name on every tools/call


@pytest.mark.parametrize("modo", MODOS)
def test_the_python_sdk_signs_in_with_oauth_and_writes_under_2026(hub, modo):  # noqa: F811
    base, persona, _personal = hub
    url = f"{base}/mcp/api/mcp"
    proveedor = proveedor_sdk(
        url, Memoria(), Persona("sofia_sdk"), "asistente:leer asistente:escribir"
    )
    tipo = tipo_con_etapas(GroupFactory(name="Revisión 2026"), nombre="Certificado 2026")
    solicitud = services.radicar(
        tipo=tipo,
        nombre_solicitante="Ciudadano",
        correo_solicitante="ciudadano@correo.example",
        resumen="Certificado de prueba",
    )
    comentar = {"numero_radicado": solicitud.numero_radicado, "comentario": "Revisado, gracias."}

    async def conversar() -> dict[str, Any]:
        async with (
            httpx2.AsyncClient(auth=proveedor, timeout=30) as http,
            Client(streamable_http_client(url, http_client=http), mode=modo) as cliente,
        ):
            herramientas = {h.name for h in (await cliente.list_tools()).tools}
            documentos = await cliente.call_tool("buscar_documento", {"texto": "vacaciones"})
            previa = await cliente.call_tool("comentar_solicitud", comentar)
            assert not previa.is_error, previa.structured_content
            token = previa.structured_content["token_confirmacion"]
            escrita = await cliente.call_tool(
                "comentar_solicitud", {**comentar, "confirmar": True, "token_confirmacion": token}
            )
            return {
                "version": cliente.protocol_version,
                "herramientas": herramientas,
                "documentos": documentos,
                "escrita": escrita,
            }

    r = asyncio.run(conversar())
    assert r["version"] == "2026-07-28"
    assert {"buscar_documento", *ESCRITURAS} <= r["herramientas"]
    assert r["documentos"].structured_content["documentos"][0]["codigo_publicado"] == "GTH-PR-004"
    assert r["escrita"].is_error is False, r["escrita"].structured_content
    fila = RegistroAuditoria.objects.get(
        herramienta="comentar_solicitud", argumentos__confirmar=True
    )
    assert (fila.usuario, fila.credencial, fila.resultado) == (persona, "oauth", "ok")


def test_with_hub_approval_the_sdk_sends_the_person_to_the_page_and_writes_once_approved(
    live_server, tmp_path
):
    demo = cargar_demo(tmp_path, 1)
    AjustesAsistente.objects.update(aprobar_en_el_hub=True)
    AjustesAsistente.olvidar()
    cabeceras = {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]}
    argumentos = argumentos_demo(demo)["radicar_mesa_ayuda"]
    paginas: list[str] = []

    def aprobar(url: str) -> None:
        fila = Aprobacion.objects.get()
        assert url.endswith(fila.enlace)
        aprobaciones.decidir(usuario=fila.usuario, clave=fila.clave, aprobar=True)

    async def la_persona(contexto, params) -> ElicitResult:
        paginas.append(params.url)
        if len(paginas) == 2:  # the first time the person only looked: nothing is written
            await asyncio.to_thread(aprobar, params.url)
        return ElicitResult(action="accept")

    async def conversar():
        async with (
            httpx2.AsyncClient(headers=cabeceras, timeout=60) as http,
            Client(
                streamable_http_client(f"{live_server.url}/mcp/api/mcp", http_client=http),
                elicitation_callback=la_persona,
            ) as cliente,
        ):
            return await cliente.call_tool("radicar_mesa_ayuda", argumentos)

    resultado = asyncio.run(conversar())
    assert resultado.is_error is False, resultado.structured_content
    assert len(paginas) == 2 and paginas[0] == paginas[1]
    assert [f.resultado for f in RegistroAuditoria.objects.order_by("id")] == [
        "ok",  # the preview
        "APROBACION_PENDIENTE",  # the client's first «accept»: not an approval
        "ok",  # the write, after «Aprobar» on the hub
    ]
    assert RegistroAuditoria.objects.order_by("id").last().argumentos["aprobada_en_el_hub"] is True
