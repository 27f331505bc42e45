"""Hub approval end to end (issue 40): the official Python SDK client against a live server with
the switch on, and the person's «Aprobar» in a real browser (Debian's Chromium), at 1280 and
390 px, with screenshots under var/capturas/."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from apps.cuentas.models import User
from apps.mcp.models import Aprobacion, RegistroAuditoria
from apps.solicitudes.models import Solicitud
from tests.argumentos_demo import argumentos_demo
from tests.factories import CONTRASENA
from tests.mcp_cliente import ajustar
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = pytest.mark.django_db(transaction=True)

COMENTARIO = "Aprobado por la persona en el hub, gracias."


async def _llamadas(url: str, cabeceras: dict[str, str], llamadas: list[dict]) -> list[Any]:
    """Each call in order, in one SDK session: the CallToolResult of each."""
    async with (
        httpx2.AsyncClient(headers=cabeceras, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http)) as cliente,
    ):
        await cliente.list_tools()  # the SDK validates results against the listed outputSchema
        return [await cliente.call_tool("comentar_solicitud", a) for a in llamadas]


def _sdk(url: str, cabeceras: dict[str, str], llamadas: list[dict]) -> list[Any]:
    """`_llamadas` in a thread of its own: Playwright's sync API holds this thread's loop."""
    with ThreadPoolExecutor(max_workers=1) as hilo:
        return hilo.submit(asyncio.run, _llamadas(url, cabeceras, llamadas)).result(timeout=60)


def _ingresar(pagina, destino: str) -> None:
    """Open the link signed out: the sign-in page, then back to the link as `completo`."""
    pagina.goto(destino)
    pagina.wait_for_url("**/cuentas/login/**")
    pagina.get_by_label("Usuario").fill("completo")
    pagina.get_by_label("Contraseña", exact=True).fill(CONTRASENA)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(destino)


def test_the_sdk_previews_is_refused_until_the_person_approves_in_the_browser_then_writes_once(
    demo_en_vivo, live_server, navegador
):
    persona = User.objects.get(username="completo")
    persona.set_password(CONTRASENA)
    persona.save()
    ajustar(aprobar_en_el_hub=True)
    url = f"{live_server.url}/mcp/api/mcp"
    cabeceras = {
        "X-MCP-Api-Key": demo_en_vivo["api_key"],
        "X-MCP-User-Token": demo_en_vivo["tokens"]["completo"],
    }
    argumentos = {**argumentos_demo(demo_en_vivo)["comentar_solicitud"], "comentario": COMENTARIO}
    solicitud = Solicitud.objects.get(numero_radicado=argumentos["numero_radicado"])
    antes = solicitud.comentarios.count()

    (previa,) = _sdk(url, cabeceras, [argumentos])
    assert previa.is_error is False
    datos = previa.structured_content
    token = datos["token_confirmacion"]
    aprobacion = datos["aprobacion"]
    assert aprobacion["url"] == live_server.url + aprobacion["enlace"]
    assert token not in aprobacion["url"]
    confirmado = {**argumentos, "confirmar": True, "token_confirmacion": token}

    (pendiente,) = _sdk(url, cabeceras, [confirmado])
    assert pendiente.is_error is True
    assert pendiente.structured_content["codigo"] == "APROBACION_PENDIENTE"
    assert pendiente.structured_content["aprobacion"] == aprobacion
    assert solicitud.comentarios.count() == antes

    angosta = navegador(390, 844)
    violaciones = vigilar_csp(angosta)
    _ingresar(angosta, aprobacion["url"])
    assert angosta.get_by_role("heading", name="Comentar una solicitud").is_visible()
    assert COMENTARIO in angosta.locator(".resumen").inner_text()
    assert ancho_de_pagina(angosta) <= 390
    capturar(angosta, "aprobacion_pendiente_390")

    ancha = navegador(1280, 800)
    violaciones += vigilar_csp(ancha)
    _ingresar(ancha, aprobacion["url"])
    assert ancha.locator("#estado").inner_text() == "Pendiente de su aprobación"
    capturar(ancha, "aprobacion_pendiente_1280")
    ancha.get_by_role("button", name="Aprobar").click()
    ancha.wait_for_selector("text=Usted la aprobó")
    assert ancha.locator("#estado").inner_text() == "Aprobada"
    assert Aprobacion.objects.get().estado == "aprobada"

    hecho, tercera = _sdk(url, cabeceras, [confirmado, confirmado])
    assert hecho.is_error is False
    assert hecho.structured_content["publicado"] is True
    assert tercera.is_error is True
    assert tercera.structured_content["codigo"] == "CONFIRMACION_USADA"
    assert solicitud.comentarios.count() == antes + 1
    fila = RegistroAuditoria.objects.filter(
        herramienta="comentar_solicitud", resultado="ok"
    ).first()
    assert fila.argumentos["aprobada_en_el_hub"] is True

    ancha.reload()
    assert ancha.locator("#estado").inner_text() == "Aprobada y realizada"
    capturar(ancha, "aprobacion_realizada_1280")
    angosta.reload()
    capturar(angosta, "aprobacion_realizada_390")
    assert ancho_de_pagina(angosta) <= 390
    angosta.wait_for_load_state("networkidle")
    assert violaciones == []
