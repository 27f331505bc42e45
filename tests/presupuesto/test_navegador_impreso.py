"""In a real browser: the print view of a signed CDP, on screen (desktop and phone) and as the
browser prints it on A4 and on Letter, under CSP; screenshots under var/capturas/."""

from __future__ import annotations

import pytest

from apps.firmas import services as firmas
from tests.conftest import CAPTURAS
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.presupuesto.mundos import cdp_de_oap

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

# CSS pixels (96 per inch) of the sheets' widths and heights.
HOJAS = {"a4": (794, 1123), "carta": (816, 1056)}


def _ingresar(pagina, usuario) -> None:
    pagina.goto(pagina.base + "/cuentas/login/")
    pagina.fill("input[name=username]", usuario.username)
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("button[type=submit]")
    pagina.wait_for_load_state()


def test_the_print_view_reads_on_screen_and_prints_on_a4_and_letter(navegador, settings):
    m = cdp_de_oap(objeto="Apoyo a la planeación institucional", reduccion="Menor valor")
    firmas.firmar(documento=m["cdp"], firmante="Camila Rojas Díaz", rol="Ordenadora del gasto")
    anulada = firmas.firmar(documento=m["cdp"], firmante="Jorge Salazar", rol="Jefe")
    firmas.anular(firma=anulada, motivo="Proceso reiniciado")
    persona = UserFactory(areas=[m["area"]], permisos=["presupuesto.planeacion.consultar"])
    CAPTURAS.mkdir(parents=True, exist_ok=True)

    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina, persona)
    pagina.goto(pagina.base + m["cdp"].enlace)
    pagina.click("text=Imprimir con sus firmas")
    pagina.wait_for_load_state()
    assert pagina.url == pagina.base + m["cdp"].enlace_impresion
    assert pagina.locator(".firma img").count() == 2
    assert pagina.locator(".firma.anulada .sello-anulada").inner_text() == "FIRMA ANULADA"
    for nombre, (ancho, alto) in {"1280": (1280, 900), "390": (390, 844), **HOJAS}.items():
        pagina.set_viewport_size({"width": ancho, "height": alto})
        papel = nombre in HOJAS
        pagina.emulate_media(media="print" if papel else "screen")
        # The tools (print, PDF on A4 or Letter, back) are on screen, never on paper.
        assert pagina.locator("nav.herramientas").is_visible() is not papel
        ancho_real = pagina.evaluate("document.documentElement.scrollWidth")
        assert ancho_real <= ancho, (nombre, ancho_real)  # nothing runs off the screen or sheet
        pagina.screenshot(path=str(CAPTURAS / f"impreso_cdp_vista_{nombre}.png"), full_page=True)
    assert violaciones == [], violaciones
