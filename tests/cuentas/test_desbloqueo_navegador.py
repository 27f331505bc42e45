"""Unlock by e-mail in a real browser (issue 35): the lock e-mail's link opens a branded Spanish
page, its button marks that browser as known, and the person signs in there while the lock lasts
(screenshots at 1280 and 390 px in var/capturas/)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from apps.cuentas.models import BloqueoIngreso
from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

TECHO = 3
RUTA = re.compile(r"https?://\S+?(/cuentas/desbloquear/sgides_[0-9A-Za-z]+/)")


@pytest.fixture
def camila(settings):
    """Made before the browser starts (see tests/cuentas/test_ingreso.py)."""
    settings.HUB_INGRESO_TECHO_CUENTA = TECHO
    marca_demo.cargar(ContextoDemo())
    UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", email="camila@entidad.gov.co"
    )


def _ingresar(pagina, contrasena: str):
    pagina.goto(pagina.base + "/cuentas/login/")
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill(contrasena)
    with pagina.expect_response("**/cuentas/login/*") as respuesta:
        pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_load_state()
    return respuesta.value


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_e_mailed_link_marks_this_browser_known_and_the_person_signs_in(
    camila, navegador, ancho, alto
):
    ajeno = navegador(ancho, alto)
    for n in range(TECHO):
        assert _ingresar(ajeno, f"equivocada-{n}").status == 200
    assert _ingresar(ajeno, CONTRASENA).status == 429
    [aviso] = mail.outbox
    ruta = RUTA.search(aviso.body).group(1)

    propio = navegador(ancho, alto)
    violaciones = vigilar_csp(propio)
    propio.goto(propio.base + ruta)
    assert propio.get_by_role("heading", name="Reconocer este navegador").is_visible()
    assert "Hágalo solo en un equipo de su confianza" in propio.inner_text("main")
    assert palabras_partidas(propio, ".tarjeta-cuenta") == []
    assert ancho_de_pagina(propio) <= ancho
    capturar(propio, f"desbloqueo_enlace_{ancho}")
    assert BloqueoIngreso.objects.get().desbloqueado_en is None  # opening it changed nothing

    propio.get_by_role("button", name="Reconocer este navegador").click()
    propio.wait_for_load_state()
    assert propio.get_by_role("heading", name="Este navegador quedó reconocido").is_visible()
    assert ancho_de_pagina(propio) <= ancho
    capturar(propio, f"desbloqueo_hecho_{ancho}")

    propio.get_by_role("link", name="Ir al ingreso").click()
    assert _ingresar(propio, CONTRASENA).status == 302
    propio.wait_for_url(propio.base + "/")
    assert _ingresar(ajeno, CONTRASENA).status == 429  # the lock stands for everyone else
    propio.goto(propio.base + ruta)
    assert propio.get_by_role("heading", name="Este enlace ya se usó").is_visible()
    capturar(propio, f"desbloqueo_usado_{ancho}")
    assert violaciones == []
