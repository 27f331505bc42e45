"""The brand editor in a real headless browser: an administrator changes a colour and the logo,
and the public brand (new ETag) and the sign-in page (new logo, new colour) follow at once."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import httpx
import pytest
from django.db import connections
from PIL import Image
from playwright.sync_api import expect

from apps.marca import services
from apps.marca.models import Marca
from tests.conftest import CAPTURAS
from tests.factories import UserFactory
from tests.marca.factories import URL_MARCA, png
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

COLOR_NUEVO = "#7a1f5c"  # typed in lower case; stored and shown in upper case
RGB_NUEVO = "rgb(122, 31, 92)"


@pytest.fixture(autouse=True)
def _cerrar_conexiones(navegador):
    """Playwright's loop gives this thread another context, hence another DB connection:
    close it here, or PostgreSQL refuses to drop the test database at the end."""
    yield
    connections.close_all()


def _logo_nuevo(tmp_path: Path) -> tuple[Path, bytes]:
    """A small PNG file on disk, as an administrator would pick it."""
    salida = io.BytesIO()
    Image.new("RGBA", (24, 12), (122, 31, 92, 255)).save(salida, format="PNG")
    ruta = tmp_path / "logo-nuevo.png"
    ruta.write_bytes(salida.getvalue())
    return ruta, salida.getvalue()


def _marca(base: str, **cabeceras: str) -> httpx.Response:
    return httpx.get(f"{base}{URL_MARCA}", headers=cabeceras, timeout=10)


def _logo_de_ingreso(pagina) -> str:
    pagina.goto(pagina.base + "/cuentas/login/")
    logo = pagina.locator(".ingreso-logo img")
    # Loaded and drawn by the browser, not just referenced.
    pagina.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=logo.element_handle())
    return logo.get_attribute("src")


def test_an_admin_changes_colour_and_logo_and_the_sign_in_page_shows_them(navegador, tmp_path):
    UserFactory(username="marta", is_staff=True, is_superuser=True)
    services.guardar_imagen(slot="logo", datos=png((11, 79, 108, 255)))
    pagina = navegador(1280, 1000)
    violaciones = vigilar_csp(pagina)
    visitante = navegador(1280, 800)  # not signed in: sees the sign-in page
    violaciones_ingreso = vigilar_csp(visitante)
    antes = _marca(pagina.base)
    assert antes.status_code == 200
    etag_antes = antes.headers["ETag"]
    logo_antes = _logo_de_ingreso(visitante)
    assert logo_antes == antes.json()["data"]["logo_url"]

    ingresar_al_admin(pagina, "marta")
    editor = pagina.goto(pagina.base + "/admin/marca/marca/")
    assert editor.status == 200
    assert "content-security-policy" in editor.headers  # the editor works under the page CSP
    assert f'"{pagina.locator(".field-version .readonly").inner_text()}"' == etag_antes
    ruta, contenido = _logo_nuevo(tmp_path)
    pagina.fill("input[name=color_primario]", COLOR_NUEVO)
    pagina.set_input_files("input[name=logo_archivo]", str(ruta))
    pagina.click("input[name=_save]")
    pagina.wait_for_selector(".messagelist .success")
    assert pagina.locator(".errornote").count() == 0
    # Saving stays on the single form: it shows the new brand, colour written as stored.
    assert pagina.input_value("input[name=color_primario]") == COLOR_NUEVO.upper()
    assert pagina.input_value("[data-muestra-de=id_color_primario]") == COLOR_NUEVO
    vista = pagina.locator(".field-vista_logo img")
    pagina.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=vista.element_handle())
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    pagina.screenshot(path=str(CAPTURAS / "marca_admin_guardada.png"), full_page=True)

    despues = _marca(pagina.base, **{"If-None-Match": etag_antes})
    assert despues.status_code == 200
    datos = despues.json()["data"]
    etag = despues.headers["ETag"]
    assert etag != etag_antes
    assert etag == f'"{datos["version"]}"'
    assert datos["color_primario"] == COLOR_NUEVO.upper()
    assert datos["logo_tipo"] == "png"
    assert datos["logo_url"].endswith(f"/auth/api/v1/auth/marca/archivo/logo?v={datos['version']}")
    assert f'"{pagina.locator(".field-version .readonly").inner_text()}"' == etag

    src = _logo_de_ingreso(visitante)
    assert src == datos["logo_url"]
    assert src != logo_antes
    imagen = httpx.get(src, timeout=10)
    assert imagen.status_code == 200
    assert imagen.headers["Content-Type"] == "image/png"
    assert imagen.headers["ETag"] == f'"{hashlib.sha256(contenido).hexdigest()[:16]}"'
    assert imagen.content == contenido
    fondo = visitante.locator(".ingreso-marca").evaluate("e => getComputedStyle(e).backgroundColor")
    assert fondo == RGB_NUEVO
    visitante.screenshot(path=str(CAPTURAS / "marca_ingreso_nueva.png"), full_page=True)
    assert violaciones == []
    assert violaciones_ingreso == []


def test_the_editor_previews_unsaved_values_and_warns_about_a_light_primary(navegador):
    UserFactory(username="marta", is_staff=True, is_superuser=True)
    pagina = navegador(1280, 1000)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "marta")
    pagina.goto(pagina.base + "/admin/marca/marca/")
    vista = pagina.frame_locator("iframe[data-vista-previa]")
    assert vista.locator(".ingreso-nombre").inner_text() == "Hub institucional"

    pagina.fill("input[name=nombre]", "Alcaldía en línea")
    pagina.fill("input[name=login_titulo]", "Ingreso de funcionarios")
    vista.locator("text=Ingreso de funcionarios").wait_for()
    assert vista.locator(".ingreso-nombre").inner_text() == "Alcaldía en línea"

    # The swatch and the hex value stay equal, and a light primary is flagged as it is typed.
    pagina.fill("input[name=color_primario]", "#FFD966")
    aviso = pagina.locator('[data-contraste-de="id_color_primario"]')
    assert "Se lee poco sobre blanco" in aviso.inner_text()
    assert pagina.input_value("[data-muestra-de=id_color_primario]") == "#ffd966"
    expect(vista.locator(".ingreso-marca")).to_have_css("background-color", "rgb(255, 217, 102)")
    capturar(pagina, "admin_marca_vista_previa_1280")
    pagina.fill("input[name=color_primario]", "#0B4F6C")
    assert "Se lee poco" not in aviso.inner_text()
    assert Marca.objects.get().nombre == "Hub institucional"  # nothing saved while typing
    assert violaciones == []
