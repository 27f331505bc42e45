from __future__ import annotations

import uuid

import pytest
from django.db import connections

from tests.conftest import CAPTURAS
from tests.firmas.factories import firma_anulada, firmar
from tests.navegador_csp import vigilar_csp

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.fixture(autouse=True)
def _cerrar_conexiones(navegador):
    """Playwright's loop gives this thread another context, hence another DB connection:
    close it here, or PostgreSQL refuses to drop the test database at the end."""
    yield
    connections.close_all()


def _sin_desborde_horizontal(pagina) -> None:
    ancho = pagina.evaluate("document.documentElement.scrollWidth")
    assert ancho <= pagina.viewport_size["width"]


def test_a_phone_scanning_a_valid_signature_sees_it_clearly(navegador, area_firmable):
    firmar(area_firmable, firmante="Jorge Iván Peña Cárdenas", rol="Profesional de presupuesto")
    firma = firmar(area_firmable)
    pagina = navegador(390, 844)
    violaciones = vigilar_csp(pagina)
    respuesta = pagina.goto(f"{pagina.base}{firma.ruta_verificacion()}")
    assert respuesta.status == 200
    titulo = pagina.get_by_role("heading", level=1)
    assert titulo.inner_text() == "Firma válida"
    assert titulo.is_visible()
    assert float(titulo.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
    cuerpo = pagina.locator("main").inner_text()
    for dato in (
        "María Fernanda López Rincón",
        "Ordenador del gasto",
        "2025-03-04 10:06:07",
        f"CDP-2025-{area_firmable.pk:04d}",
        "Expedido",
        str(firma.token),
    ):
        assert dato in cuerpo
    # The verdict is seen without scrolling.
    caja = pagina.locator(".estado").bounding_box()
    assert caja["y"] + caja["height"] <= 844
    _sin_desborde_horizontal(pagina)
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    pagina.screenshot(path=str(CAPTURAS / "verificacion_movil.png"), full_page=True)
    assert violaciones == []


def test_a_phone_sees_an_annulled_signature_as_annulled(navegador, area_firmable):
    firma = firma_anulada(area_firmable)
    pagina = navegador(390, 844)
    violaciones = vigilar_csp(pagina)
    respuesta = pagina.goto(f"{pagina.base}{firma.ruta_verificacion()}")
    assert respuesta.status == 200
    assert pagina.get_by_role("heading", level=1).inner_text() == "La firma fue anulada."
    assert "Firma válida" not in pagina.locator("main").inner_text()
    _sin_desborde_horizontal(pagina)
    pagina.screenshot(path=str(CAPTURAS / "verificacion_movil_anulada.png"), full_page=True)
    assert violaciones == []


def test_a_phone_with_an_unknown_code_sees_not_found(navegador, area_firmable):
    firmar(area_firmable)
    pagina = navegador(390, 844)
    violaciones = vigilar_csp(pagina)
    respuesta = pagina.goto(f"{pagina.base}/presupuesto/verificar/{uuid.uuid4()}")
    assert respuesta.status == 404
    assert pagina.get_by_role("heading", level=1).inner_text() == "Firma no encontrada"
    assert "Desconfíe del documento." in pagina.locator("main").inner_text()
    _sin_desborde_horizontal(pagina)
    pagina.screenshot(path=str(CAPTURAS / "verificacion_movil_no_encontrada.png"), full_page=True)
    assert violaciones == []
