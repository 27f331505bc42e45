"""Per-account protection in a real browser (issue 23 item 5): a new browser meets the Spanish
lock page, the person's own browser still signs in, an administrator sees the lock and ends it
(screenshots in var/capturas/)."""

from __future__ import annotations

import pytest
from django.core import mail

from apps.cuentas.models import BloqueoIngreso
from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp
from tests.navegador_menu import abrir_menu
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

TECHO = 5
ANCHOS = [(1280, 900), (390, 844)]


@pytest.fixture
def personas(settings):
    """Made before the browser starts (see tests/cuentas/test_ingreso.py)."""
    settings.HUB_INGRESO_TECHO_CUENTA = TECHO
    marca_demo.cargar(ContextoDemo())
    UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", email="camila@entidad.gov.co"
    )
    UserFactory(username="jefa", is_staff=True, is_superuser=True)


def _ingresar(pagina, usuario: str, contrasena: str, ruta: str = "/cuentas/login/"):
    pagina.goto(pagina.base + ruta)
    pagina.get_by_label("Usuario").fill(usuario)
    pagina.get_by_label("Contraseña", exact=True).fill(contrasena)
    with pagina.expect_response(f"**{ruta}*") as respuesta:
        pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_load_state()
    return respuesta.value


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_new_browser_meets_the_lock_and_the_known_one_still_signs_in(
    personas, navegador, ancho, alto
):
    propio = navegador(ancho, alto)
    violaciones = vigilar_csp(propio)
    assert _ingresar(propio, "camila", CONTRASENA).status == 302
    propio.wait_for_url(propio.base + "/")
    abrir_menu(propio)
    propio.get_by_role("button", name="Cerrar sesión").click()
    propio.wait_for_url("**/cuentas/login/")

    ajeno = navegador(ancho, alto)
    violaciones += vigilar_csp(ajeno)
    for n in range(TECHO):
        assert _ingresar(ajeno, "camila", f"equivocada-{n}").status == 200
    respuesta = _ingresar(ajeno, "camila", CONTRASENA)
    assert respuesta.status == 429
    assert int(respuesta.headers["retry-after"]) > 0
    assert ajeno.get_by_role("heading", name="Esta cuenta está protegida").is_visible()
    assert "No revisamos la contraseña que escribió" in ajeno.inner_text("main")
    assert palabras_partidas(ajeno, ".tarjeta-cuenta") == []
    assert ancho_de_pagina(ajeno) <= ancho
    capturar(ajeno, f"cuenta_protegida_{ancho}")

    assert _ingresar(propio, "camila", CONTRASENA).status == 302
    propio.wait_for_url(propio.base + "/")
    assert [m.to for m in mail.outbox] == [["camila@entidad.gov.co"]]
    propio.wait_for_load_state("networkidle")
    assert violaciones == []


def test_an_administrator_sees_the_lock_and_ends_it(personas, navegador):
    ajeno = navegador(1280, 900)
    for n in range(TECHO):
        _ingresar(ajeno, "camila", f"equivocada-{n}")
    assert _ingresar(ajeno, "camila", CONTRASENA).status == 429

    admin = navegador(1280, 900)
    violaciones = vigilar_csp(admin)
    ingresar_al_admin(admin, "jefa")
    admin.goto(admin.base + "/admin/cuentas/bloqueoingreso/")
    assert admin.get_by_role("heading", name="Bloqueos de ingreso").is_visible()
    fila = admin.locator("#result_list tbody tr").first
    assert "camila" in fila.inner_text() and "Activo" in fila.inner_text()
    contenedor = admin.locator(".results")
    assert contenedor.evaluate("e => e.scrollWidth <= e.clientWidth")  # every column visible
    assert ancho_de_pagina(admin) <= 1280
    capturar(admin, "admin_bloqueos_ingreso")
    fila.locator("input.action-select").check()
    admin.locator("select[name=action]").select_option("levantar")
    admin.get_by_role("button", name="Ir").click()
    admin.wait_for_load_state()
    assert admin.get_by_text("Se levantó 1 bloqueo.").is_visible()
    capturar(admin, "admin_bloqueo_levantado")
    assert BloqueoIngreso.objects.get().levantado_en is not None

    assert _ingresar(ajeno, "camila", CONTRASENA).status == 302
    assert violaciones == []
