"""Over the real demo organization: every tool answers `completo`, `limitado` is held back, and
each tool's SQL cost is the same at the demo's size and at ten times it."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.argumentos_demo import argumentos_demo
from tests.conftest import limpiar_cache
from tests.mcp_cliente import cargar_demo, cumple_esquema, llamar, rpc

pytestmark = pytest.mark.django_db

PRESUPUESTO = {
    "estado_cdp",
    "estado_rp",
    "estado_presupuesto",
    "resumen_ejecutivo",
    "reporte_preparar",
}


def _cabeceras(demo: dict, quien: str) -> dict[str, str]:
    return {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"][quien]}


def _herramientas(client, cabeceras) -> dict[str, dict]:
    lista = rpc(client, "tools/list", **cabeceras).resultado["tools"]
    return {h["name"]: h for h in lista}


def _costos(client, demo, cabeceras) -> dict[str, int]:
    costos = {}
    for nombre, argumentos in argumentos_demo(demo).items():
        llamar(client, nombre, argumentos, **cabeceras)  # warm caches (settings, brand, perms)
        with CaptureQueriesContext(connection) as consultas:
            llamar(client, nombre, argumentos, **cabeceras)
        costos[nombre] = len(consultas)
    return costos


def test_every_tool_answers_completo_with_a_summary_and_valid_structured_content(client, tmp_path):
    demo = cargar_demo(tmp_path, 1)
    cabeceras = _cabeceras(demo, "completo")
    herramientas = _herramientas(client, cabeceras)
    argumentos = argumentos_demo(demo)
    assert set(herramientas) == set(argumentos)

    for nombre, args in argumentos.items():
        resultado = llamar(client, nombre, args, **cabeceras).resultado
        assert resultado["isError"] is False, (nombre, resultado["structuredContent"])
        resumen, datos = resultado["content"]
        assert resumen["type"] == "text" and len(resumen["text"]) > 20, nombre
        assert json.loads(datos["text"]) == json.loads(json.dumps(resultado["structuredContent"]))
        cumple_esquema(resultado["structuredContent"], herramientas[nombre]["outputSchema"])


def test_limitado_does_not_see_the_budget_tools_and_calling_one_is_sin_permiso(client, tmp_path):
    demo = cargar_demo(tmp_path, 1)
    cabeceras = _cabeceras(demo, "limitado")
    visibles = set(_herramientas(client, cabeceras))
    assert not visibles & PRESUPUESTO
    assert {"radicar_mesa_ayuda", "buscar_solicitudes", "mis_accesos"} <= visibles
    for nombre in PRESUPUESTO:
        resultado = llamar(client, nombre, argumentos_demo(demo)[nombre], **cabeceras).resultado
        assert resultado["isError"] is True
        assert resultado["structuredContent"]["codigo"] == "SIN_PERMISO", nombre


def test_no_tool_costs_more_queries_at_ten_times_the_demo(client, tmp_path):
    demo = cargar_demo(tmp_path, 1)
    cabeceras = _cabeceras(demo, "completo")
    antes = _costos(client, demo, cabeceras)
    cargar_demo(tmp_path, 10)
    limpiar_cache()  # a fresh minute for the 60-per-minute limit of a person
    despues = _costos(client, demo, cabeceras)
    assert despues == antes


async def _sdk_llama_todas(url: str, cabeceras: dict[str, str], argumentos: dict) -> dict:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(headers=cabeceras, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as cliente,
    ):
        listadas = {h.name for h in (await cliente.list_tools()).tools}
        resultados = {n: await cliente.call_tool(n, a) for n, a in argumentos.items()}
        return {"listadas": listadas, "resultados": resultados}


@pytest.mark.django_db(transaction=True)
def test_the_official_sdk_calls_every_tool_as_completo(live_server, tmp_path):
    import asyncio

    demo = cargar_demo(tmp_path, 1)
    argumentos = argumentos_demo(demo)
    r = asyncio.run(
        _sdk_llama_todas(f"{live_server.url}/mcp/api/mcp", _cabeceras(demo, "completo"), argumentos)
    )
    assert r["listadas"] == set(argumentos)
    for nombre, resultado in r["resultados"].items():
        assert resultado.is_error is False, (nombre, resultado.structured_content)
        assert len(resultado.content) == 2
        assert resultado.structured_content, nombre
