"""The profile's assistant access in a real headless browser: create, copy once, reload, revoke;
the token table readable at 1280 px and on a phone."""

from __future__ import annotations

import re

import httpx
import pytest

from apps.mcp.models import AjustesAsistente, TokenPersonal
from tests.factories import CONTRASENA, UserFactory
from tests.mcp.factories import nuevo_token
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

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
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("button[type=submit]")
    pagina.wait_for_url("**/cuentas/perfil/**")


@pytest.fixture
def camila():
    """Camila, with assistant access, made before the browser starts (see test_ingreso.py)."""
    AjustesAsistente.olvidar()
    return UserFactory(
        username="camila",
        first_name="Camila",
        last_name="Rojas Díaz",
        permisos=["mcp.asistente.usar"],
    )


@pytest.fixture
def persona_con_tokens(camila):
    """Camila's four tokens: long-lived, about to expire, expired and revoked."""
    nuevo_token(camila, nombre="Asistente de escritorio del despacho", dias=60)
    nuevo_token(camila, nombre="Portátil", dias=5)
    nuevo_token(camila, nombre="Servidor de reportes", dias=-2)
    nuevo_token(camila, nombre="Perdido", revocado=True)
    return camila


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
    assert secreto in pagina.inner_text("#config-vscode")
    assert pagina.base + "/mcp/api/mcp" in pagina.inner_text("#config-vscode")

    pagina.click("text=Copiar token")
    pagina.wait_for_selector("text=Copiado")
    assert pagina.evaluate("navigator.clipboard.readText()") == secreto
    capturar(pagina, "perfil_token_creado_1280")
    assert _ping(pagina.base, secreto) == 200

    pagina.reload()
    assert pagina.locator("#valor-token").count() == 0
    assert secreto not in pagina.content()
    assert TokenPersonal.objects.filter(usuario=persona).count() == 1
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


def test_a_token_with_a_date_of_its_own_asks_for_the_date_only_then(navegador):
    AjustesAsistente.olvidar()
    persona = UserFactory(username="andres", permisos=["mcp.asistente.usar"])
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "andres")
    assert not pagina.is_visible("#id_fecha")
    pagina.fill("#id_nombre", "Hasta fin de mes")
    pagina.select_option("#id_dias", "fecha")
    assert pagina.is_visible("#id_fecha")
    maximo = pagina.get_attribute("#id_fecha", "max")
    pagina.fill("#id_fecha", maximo)
    pagina.click("text=Crear token")
    pagina.wait_for_selector("#valor-token")
    token = TokenPersonal.objects.get(usuario=persona)
    assert token.vence.astimezone().date().isoformat() <= maximo
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_token_table_breaks_no_word_and_fits_the_screen(
    persona_con_tokens, navegador, ancho, alto
):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "camila")
    pagina.wait_for_selector("#tokens")
    assert palabras_partidas(pagina, "#tokens") == []
    assert ancho_de_pagina(pagina) <= ancho
    assert pagina.locator(".estado-por-vencer").count() == 1
    assert pagina.is_visible("text=Su token «Portátil» vence el")
    capturar(pagina, f"perfil_tokens_{ancho}")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_new_token_and_its_client_settings_fit_the_screen(navegador, ancho, alto):
    AjustesAsistente.olvidar()
    UserFactory(username="andres", permisos=["mcp.asistente.usar"])
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "andres")
    pagina.fill("#id_nombre", "Teléfono")
    pagina.click("text=Crear token")
    pagina.wait_for_selector("#valor-token")
    pagina.click("text=Clientes que solo abren procesos locales")
    assert pagina.is_visible("#config-puente")
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"perfil_token_nuevo_{ancho}")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_a_person_without_access_sees_so(navegador, ancho, alto):
    lucia = UserFactory(username="lucia", first_name="Lucía", last_name="Martínez Ortiz")
    nuevo_token(lucia, nombre="De antes")
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "lucia")
    assert pagina.is_visible("#sin-acceso")
    assert pagina.locator("text=Cómo conectarse").count() == 0
    assert pagina.locator(".estado-sin-acceso").inner_text() == "sin acceso"
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"perfil_sin_acceso_{ancho}")
    assert violaciones == []


@pytest.fixture
def persona_con_aplicaciones(camila):
    """Camila's two connected applications (one verified), made before the browser starts."""
    from tests.mcp.factories import nueva_aplicacion, nuevo_token_oauth

    nuevo_token_oauth(camila, aplicacion=nueva_aplicacion("Claude", verificada=True))
    nuevo_token_oauth(
        camila,
        aplicacion=nueva_aplicacion("Asistente de investigación del despacho jurídico"),
        alcances="asistente:leer",
    )
    return camila


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_connected_applications_fit_the_screen_and_one_is_disconnected(
    persona_con_aplicaciones, navegador, ancho, alto
):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, "camila")
    pagina.wait_for_selector("#tabla-aplicaciones")
    pagina.locator("#aplicaciones").scroll_into_view_if_needed()
    assert palabras_partidas(pagina, "#tabla-aplicaciones") == []
    assert ancho_de_pagina(pagina) <= ancho
    assert pagina.locator("#tabla-aplicaciones tbody tr").count() == 2
    capturar(pagina, f"perfil_aplicaciones_{ancho}")
    fila = pagina.locator("#tabla-aplicaciones tr", has_text="Claude")
    fila.locator("text=Desconectar").click()
    pagina.wait_for_selector("text=«Claude» quedó desconectada")
    assert pagina.locator("#tabla-aplicaciones tbody tr").count() == 1
    assert violaciones == []
