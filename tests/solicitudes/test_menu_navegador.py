"""The top menu and the request list in a real headless browser: on a phone the menu folds
behind «Menú» (one row) and unfolds on a tap; at 1280 px it stays in sight; no CSP violation."""

from __future__ import annotations

import pytest

from apps.solicitudes import services
from tests.factories import CONTRASENA, GroupFactory, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar
from tests.solicitudes.factories import persona, radicadora, tipo_con_etapas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.fixture
def coordinadora():
    """A coordinator who sees every request and has an inbox of two tasks; three requests."""
    rol = GroupFactory(name="Revisión")
    tipo = tipo_con_etapas(rol, nombre="Certificado laboral", plazos={1: 48})
    quien = radicadora()
    for resumen in ("Certificado para el banco", "Certificado para la embajada", "Viaje"):
        services.radicar(tipo=tipo, solicitante=quien, resumen=resumen)
    return persona(
        rol,
        permisos=["solicitudes.ver_todas", "solicitudes.bandeja.ver"],
        username="coordinadora",
        first_name="Coordinadora",
    )


def _ingresar(pagina, usuario: str, destino: str) -> None:
    pagina.goto(f"{pagina.base}/cuentas/login/?next={destino}")
    pagina.fill("input[name=username]", usuario)
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("button[type=submit]")
    pagina.wait_for_url(f"**{destino}")


def test_the_list_shows_all_and_the_menu_folds_on_a_phone(navegador, coordinadora):
    ancha = navegador(1280, 800)
    violaciones = vigilar_csp(ancha)
    _ingresar(ancha, "coordinadora", "/solicitudes/")
    assert ancha.locator("#menu").is_visible()
    assert not ancha.locator("#menu-boton").is_visible()
    assert ancha.locator("#menu a", has_text="Mis tareas (3)").is_visible()
    assert ancha.locator(".alcance").inner_text() == "Se muestran: todas las que usted puede ver."
    assert ancha.locator("#resultados tbody tr").count() == 3
    capturar(ancha, "issue41-lista-1280")

    movil = navegador(390, 844, is_mobile=True, has_touch=True)
    violaciones += vigilar_csp(movil)
    _ingresar(movil, "coordinadora", "/solicitudes/")
    boton = movil.locator("#menu-boton")
    assert boton.is_visible() and boton.get_attribute("aria-expanded") == "false"
    assert not movil.locator("#menu").is_visible()
    alto_barra = movil.locator(".barra").bounding_box()["height"]
    assert alto_barra < 80  # one row: the brand and «Menú»
    assert ancho_de_pagina(movil) <= 390
    capturar(movil, "issue41-lista-390")
    boton.click()
    assert boton.get_attribute("aria-expanded") == "true"
    assert movil.locator("#menu a", has_text="Mis tareas (3)").is_visible()
    assert ancho_de_pagina(movil) <= 390
    capturar(movil, "issue41-menu-abierto-390")
    movil.locator("#menu a", has_text="Mis tareas (3)").click()
    movil.wait_for_url("**/solicitudes/tareas")
    assert not movil.locator("#menu").is_visible()  # folded again on the next page
    assert violaciones == []


def test_a_person_without_an_inbox_has_no_mis_tareas_in_the_menu(navegador, db):
    UserFactory(username="ana")
    pagina = navegador(390, 844)
    _ingresar(pagina, "ana", "/")
    pagina.click("#menu-boton")
    assert pagina.locator("#menu a", has_text="Solicitudes").is_visible()
    assert pagina.locator("#menu a", has_text="Mis tareas").count() == 0
    capturar(pagina, "issue41-menu-sin-tareas-390")
