"""The profile's assistant access in a real headless browser: create, copy once, reload, revoke."""

from __future__ import annotations

import re

import httpx
import pytest

from apps.mcp.models import AjustesAsistente, TokenPersonal
from tests.conftest import CAPTURAS
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

PATRON_TOKEN = re.compile(r"^sgimcp_[0-9A-Za-z]{38}$")


def _ping(base: str, token: str) -> int:
    r = httpx.post(
        f"{base}/mcp/api/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"X-MCP-User-Token": token},
        timeout=10,
    )
    return r.status_code


def _ingresar(pagina, usuario: str) -> None:
    pagina.goto(pagina.base + "/cuentas/login/?next=/cuentas/perfil/")
    pagina.fill("input[name=username]", usuario)
    pagina.fill("input[name=password]", "clave-de-prueba-123")
    pagina.click("button[type=submit]")
    pagina.wait_for_url("**/cuentas/perfil/**")


def test_a_person_creates_copies_reloads_and_revokes_a_token(navegador):
    AjustesAsistente.olvidar()
    persona = UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    pagina = navegador(1280, 900, permissions=["clipboard-read", "clipboard-write"])
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "camila")

    pagina.fill("#id_nombre", "Portátil de pruebas")
    pagina.select_option("#id_dias", "30")
    pagina.click("text=Crear token")
    pagina.wait_for_selector("#valor-token")
    secreto = pagina.input_value("#valor-token")
    assert PATRON_TOKEN.match(secreto)
    assert secreto in pagina.inner_text("#config-cliente")
    assert pagina.base + "/mcp/api/mcp" in pagina.inner_text("#config-cliente")

    pagina.click("text=Copiar token")
    pagina.wait_for_selector("text=Copiado")
    assert pagina.evaluate("navigator.clipboard.readText()") == secreto
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    pagina.screenshot(path=str(CAPTURAS / "perfil_tokens.png"), full_page=True)
    assert _ping(pagina.base, secreto) == 200

    pagina.reload()
    assert pagina.locator("#valor-token").count() == 0
    assert secreto not in pagina.content()
    token = TokenPersonal.objects.get(usuario=persona)
    fila = pagina.locator(f'tr[data-token="{token.pk}"]')
    assert token.prefijo in fila.inner_text()
    assert "activo" in fila.inner_text()

    fila.locator("text=Revocar").click()
    pagina.wait_for_selector("#confirmar-revocacion")
    pagina.click("text=Sí, revocar")
    pagina.wait_for_selector("text=quedó revocado")
    assert "revocado" in pagina.locator(f'tr[data-token="{token.pk}"]').inner_text()
    assert _ping(pagina.base, secreto) == 401
    assert violaciones == []


def test_the_assistant_section_fits_a_phone_screen(navegador):
    AjustesAsistente.olvidar()
    UserFactory(username="andres", permisos=["mcp.asistente.usar"])
    pagina = navegador(390, 844)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "andres")
    pagina.fill("#id_nombre", "Teléfono")
    pagina.click("text=Crear token")
    pagina.wait_for_selector("#valor-token")
    ancho = pagina.evaluate("document.documentElement.scrollWidth")
    pagina.screenshot(path=str(CAPTURAS / "perfil_tokens_movil.png"), full_page=True)
    assert ancho <= 390
    assert violaciones == []
