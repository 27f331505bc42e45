"""«Cambiar contraseña» in a real headless browser, at 1280 px and on a phone: from the profile,
a wrong current password refused beside its field, then the change, back on the profile; the
other browser of the person is signed out. No CSP violation, no horizontal scroll."""

from __future__ import annotations

import pytest

from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

NUEVA = "Otra-clave-larga-2026"


def _ingresar(pagina, clave: str = CONTRASENA) -> None:
    pagina.goto(pagina.base + "/cuentas/login/?next=/cuentas/perfil/")
    pagina.fill("input[name=username]", "camila")
    pagina.fill("input[name=password]", clave)
    pagina.click("button[type=submit]")
    pagina.wait_for_url("**/cuentas/perfil/")


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 800), (390, 844)])
def test_the_password_is_changed_from_the_profile(navegador, ancho, alto):
    UserFactory(username="camila", first_name="Camila")
    otra = navegador(1280, 800)
    _ingresar(otra)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina)
    pagina.get_by_role("link", name="Cambiar contraseña").click()
    pagina.wait_for_url("**/cuentas/clave/cambiar/")
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"issue41-cambiar-contrasena-{ancho}")
    pagina.get_by_label("Contraseña actual").fill("equivocada")
    pagina.get_by_label("Contraseña nueva", exact=True).fill(NUEVA)
    pagina.get_by_label("Repita la contraseña nueva").fill(NUEVA)
    pagina.get_by_role("button", name="Guardar la contraseña nueva").click()
    error = pagina.locator(".errorlist").first
    assert error.inner_text() == "La contraseña actual no es correcta. Escríbala de nuevo."
    capturar(pagina, f"issue41-cambiar-contrasena-error-{ancho}")
    pagina.get_by_label("Contraseña actual").fill(CONTRASENA)
    pagina.get_by_label("Contraseña nueva", exact=True).fill(NUEVA)
    pagina.get_by_label("Repita la contraseña nueva").fill(NUEVA)
    pagina.get_by_role("button", name="Guardar la contraseña nueva").click()
    pagina.wait_for_url("**/cuentas/perfil/")
    assert "Su contraseña cambió." in pagina.locator("main").inner_text()
    capturar(pagina, f"issue41-contrasena-cambiada-{ancho}")
    otra.goto(otra.base + "/cuentas/perfil/")
    assert "/cuentas/login/" in otra.url  # the other browser was signed out
    assert violaciones == []
