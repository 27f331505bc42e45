"""Sign-in, password reset and sign-in throttling in a real browser, at 1280 px and on a phone
(screenshots in var/capturas/). E-mail goes to Django's locmem backend (the test default)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from apps.cuentas import intentos
from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_menu import abrir_menu
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

NUEVA = "Girasol-de-marzo-2026"
ANCHOS = [(1280, 900), (390, 844)]


@pytest.fixture
def camila():
    marca_demo.cargar(ContextoDemo())
    return UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", email="camila@entidad.gov.co"
    )


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_person_resets_a_forgotten_password_end_to_end(camila, navegador, ancho, alto):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/cuentas/login/")
    capturar(pagina, f"ingreso_{ancho}")
    pagina.get_by_role("link", name="¿Olvidó su contraseña?").click()
    pagina.wait_for_url("**/cuentas/clave/olvido/")
    capturar(pagina, f"clave_olvido_{ancho}")
    pagina.get_by_label("Correo electrónico institucional").fill("camila@entidad.gov.co")
    pagina.get_by_role("button", name="Enviar el enlace").click()
    pagina.wait_for_url("**/cuentas/clave/enviada/")
    assert pagina.get_by_role("heading", name="Revise su correo").is_visible()
    capturar(pagina, f"clave_enviada_{ancho}")

    [mensaje] = mail.outbox
    assert mensaje.to == ["camila@entidad.gov.co"]
    enlace = re.search(r"(http://[^/\s]+)(/cuentas/clave/\S+/\S+/)", mensaje.body)
    assert enlace.group(1) == pagina.base  # the link points at the host the person used
    pagina.goto(enlace.group(0))
    assert pagina.get_by_role("heading", name="Elija una contraseña nueva").is_visible()
    pagina.get_by_label("Contraseña nueva", exact=True).fill(NUEVA)
    pagina.get_by_label("Repita la contraseña nueva").fill(NUEVA)
    # The show-password button lets a person check what they typed.
    campo = pagina.get_by_label("Contraseña nueva", exact=True)
    pagina.locator(".mostrar-clave").first.click()
    assert campo.get_attribute("type") == "text"
    assert pagina.locator(".mostrar-clave").first.inner_text() == "Ocultar"
    capturar(pagina, f"clave_nueva_{ancho}")
    pagina.get_by_role("button", name="Guardar la contraseña").click()
    pagina.wait_for_url("**/cuentas/clave/lista/")
    capturar(pagina, f"clave_lista_{ancho}")
    pagina.get_by_role("link", name="Ir al ingreso").click()
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill(NUEVA)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(pagina.base + "/")
    abrir_menu(pagina)
    pagina.get_by_role("button", name="Cerrar sesión").click()
    pagina.wait_for_url("**/cuentas/login/")
    assert pagina.locator(".ingreso-aviso").inner_text().startswith("Cerró su sesión.")
    capturar(pagina, f"ingreso_tras_salir_{ancho}")
    assert ancho_de_pagina(pagina) <= ancho
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_refused_sign_in_and_then_too_many_attempts(camila, navegador, ancho, alto):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/cuentas/login/")
    for intento in range(intentos.POR_CUENTA):
        pagina.get_by_label("Usuario").fill("camila")
        pagina.get_by_label("Contraseña", exact=True).fill(f"equivocada-{intento}")
        pagina.get_by_role("button", name="Ingresar").click()
        pagina.wait_for_selector(".alerta[role=alert]")
    assert pagina.locator(".alerta").inner_text().startswith("No fue posible ingresar")
    assert palabras_partidas(pagina, ".alerta") == []
    capturar(pagina, f"ingreso_rechazado_{ancho}")
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill(CONTRASENA)
    with pagina.expect_response("**/cuentas/login/") as respuesta:
        pagina.get_by_role("button", name="Ingresar").click()
    assert respuesta.value.status == 429
    assert int(respuesta.value.headers["retry-after"]) > 0
    assert pagina.get_by_role("heading", name="Demasiados intentos de ingreso").is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"demasiados_intentos_{ancho}")
    assert violaciones == []
