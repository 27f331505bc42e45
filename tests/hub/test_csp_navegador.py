"""The strict policy in a real Chromium: the admin (brand editor, autocomplete, selectors, the new
API key page) works without a single violation, and the watcher does see a real one."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.urls import include, path

from tests.conftest import CAPTURAS
from tests.factories import UserFactory
from tests.marca.factories import png, poner_imagen
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.navegador,
    pytest.mark.urls(__name__),
]


def _con_inline(request):
    """A page that breaks the policy on purpose: inline script, style attribute, foreign image."""
    return HttpResponse(
        "<!doctype html><title>x</title><p style='color:red'>x</p>"
        "<script>document.title = 'ejecutado';</script>"
        "<img src='https://ejemplo.invalid/x.png' alt=''>"
    )


urlpatterns = [path("prueba-html/inline", _con_inline), path("", include("hub.urls"))]


@pytest.fixture
def personal():
    """Made before the browser starts (Playwright's loop would give the ORM another connection)."""
    poner_imagen("logo", png())
    return UserFactory(username="admin_csp", is_staff=True, is_superuser=True)


def test_the_watcher_reports_what_the_policy_blocks(navegador):
    pagina = navegador(800, 600)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/prueba-html/inline")
    pagina.wait_for_load_state("networkidle")
    assert pagina.title() == "x"  # the inline script did not run
    assert any("script-src" in v for v in violaciones), violaciones
    assert any("style-src" in v for v in violaciones), violaciones
    assert any("img-src" in v for v in violaciones), violaciones


def test_the_admin_works_under_the_policy_without_violations(navegador, personal):
    pagina = navegador(1280, 900, permissions=["clipboard-read", "clipboard-write"])
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "admin_csp")

    # The brand editor: previews, colour picker and wide text fields styled from static CSS.
    pagina.goto(pagina.base + "/admin/marca/marca/")
    pagina.wait_for_selector("img.marca-vista-previa")
    assert (
        pagina.eval_on_selector("img.marca-vista-previa", "e => getComputedStyle(e).padding")
        == "8px"
    )
    assert pagina.eval_on_selector("#id_nombre", "e => getComputedStyle(e).maxWidth") == "100%"
    pagina.fill("#id_color_primario", "#123456")
    pagina.click("input[name=_save]")
    pagina.wait_for_selector("ul.messagelist")
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    pagina.screenshot(path=str(CAPTURAS / "admin_csp_marca.png"), full_page=True)

    # Autocomplete (select2 + jQuery) on the CDP form.
    pagina.goto(pagina.base + "/admin/presupuesto/cdp/add/")
    pagina.click("#id_proyecto + .select2 .select2-selection")
    pagina.wait_for_selector(".select2-search__field")
    pagina.keyboard.press("Escape")

    # Two-box selectors (SelectFilter2) and the changelist with filters and date hierarchy.
    pagina.goto(pagina.base + f"/admin/cuentas/user/{personal.pk}/change/")
    pagina.wait_for_selector("#id_groups_from")
    pagina.goto(pagina.base + "/admin/mcp/registroauditoria/")
    pagina.wait_for_selector("#changelist")

    # A new API key: the page that shows it once, with its copy button (static JS, no onclick).
    pagina.goto(pagina.base + "/admin/mcp/claveapi/add/")
    pagina.fill("#id_nombre", "Integración del navegador")
    pagina.click("input[name=_save]")
    pagina.wait_for_selector("#clave-api")
    secreto = pagina.input_value("#clave-api")
    pagina.click("button[data-copiar]")
    pagina.wait_for_selector("text=Copiada")
    assert pagina.evaluate("navigator.clipboard.readText()") == secreto
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
