"""The official MCP Python SDK client against a live server: connect, list, call, read errors."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from apps.mcp.models import AjustesAsistente
from apps.solicitudes import services
from tests.calidad.factories import DocumentoFactory, ProcesoFactory
from tests.factories import GroupFactory, UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.solicitudes.factories import tipo_con_etapas

pytestmark = pytest.mark.django_db(transaction=True)

CORREO = "ciudadano@correo.example"


@pytest.fixture
def datos():
    AjustesAsistente.olvidar()
    DocumentoFactory(
        codigo_publicado="GTH-PR-004",
        titulo="Procedimiento de vacaciones",
        proceso=ProcesoFactory(sigla="GTH", nombre="Gestión del Talento Humano"),
        fecha_publicacion=datetime.date(2025, 3, 14),
    )
    tipo = tipo_con_etapas(GroupFactory(name="Revisión SDK"), nombre="Certificado SDK")
    solicitud = services.radicar(
        tipo=tipo,
        nombre_solicitante="Ciudadano",
        correo_solicitante=CORREO,
        resumen="Certificado de prueba",
    )
    persona = UserFactory(permisos=["mcp.asistente.usar", "solicitudes.ver_todas"])
    _, clave = nueva_clave()
    _, token = nuevo_token(persona)
    return {"clave": clave, "token": token, "numero": solicitud.numero_radicado}


async def _conversar(url: str, cabeceras: dict[str, str], numero: str) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(headers=cabeceras, timeout=30) as http,
        # Held to the 2025-06-18 handshake; its default mode speaks 2026-07-28 (test_sdk_2026.py).
        Client(streamable_http_client(url, http_client=http), mode="legacy") as cliente,
    ):
        herramientas = await cliente.list_tools()
        documentos = await cliente.call_tool("buscar_documento", {"texto": "vacaciones"})
        estado = await cliente.call_tool(
            "estado_solicitud", {"numero_radicado": numero, "correo_solicitante": CORREO}
        )
        inexistente = await cliente.call_tool(
            "estado_solicitud", {"numero_radicado": "SOL-1999-000001", "correo_solicitante": CORREO}
        )
        sin_correo = await cliente.call_tool("estado_solicitud", {"numero_radicado": numero})
        return {
            "version": cliente.protocol_version,
            "servidor": cliente.server_info,
            "capacidades": cliente.server_capabilities,
            "herramientas": {h.name: h for h in herramientas.tools},
            "documentos": documentos,
            "estado": estado,
            "inexistente": inexistente,
            "sin_correo": sin_correo,
        }


def test_the_official_sdk_connects_lists_and_calls_with_the_api_key(live_server, datos):
    url = f"{live_server.url}/mcp/api/mcp"
    r = asyncio.run(_conversar(url, {"X-MCP-Api-Key": datos["clave"]}, datos["numero"]))

    assert r["version"] == "2025-06-18"
    assert r["servidor"].name == "hub-mcp"
    assert r["capacidades"].tools.list_changed is False
    assert {"buscar_documento", "estado_solicitud"} <= set(r["herramientas"])
    assert r["herramientas"]["buscar_documento"].annotations.read_only_hint is True

    documentos = r["documentos"]
    assert documentos.is_error is False
    assert documentos.structured_content["total"] == 1
    assert documentos.structured_content["documentos"][0]["codigo_publicado"] == "GTH-PR-004"
    assert len(documentos.content) == 2

    estado = r["estado"]
    assert estado.is_error is False
    assert estado.structured_content["numero_radicado"] == datos["numero"]
    assert "resumen" not in estado.structured_content  # minimal subset without a person

    assert r["inexistente"].is_error is True
    assert r["inexistente"].structured_content["codigo"] == "NO_ENCONTRADO"
    assert r["sin_correo"].is_error is True
    assert r["sin_correo"].structured_content["codigo"] == "FALTA_VERIFICACION"


def test_the_official_sdk_acts_as_the_person_with_key_and_token(live_server, datos):
    url = f"{live_server.url}/mcp/api/mcp"
    cabeceras = {"X-MCP-Api-Key": datos["clave"], "X-MCP-User-Token": datos["token"]}
    r = asyncio.run(_conversar(url, cabeceras, datos["numero"]))
    estado = r["estado"].structured_content
    assert r["estado"].is_error is False
    assert estado["resumen"] == "Certificado de prueba"  # full subset for a person
    assert estado["enlace"].startswith("/solicitudes/")
