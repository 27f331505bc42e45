"""Narrowing a connected application in a real browser, at 1280 px and on a phone (screenshots
in var/capturas/): from "Aplicaciones conectadas" to the access page, one area unticked and
writing too, back on the profile with the connection narrowed."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken

from apps.mcp.models import AjustesAsistente
from tests.factories import CONTRASENA, UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token_oauth
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

TODO = (
    "asistente:calidad asistente:escribir asistente:leer asistente:presupuesto "
    "asistente:solicitudes"
)


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_a_person_narrows_a_connection_from_the_profile(navegador, ancho, alto):
    AjustesAsistente.olvidar()
    camila = UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    claude = nueva_aplicacion("Claude")
    nuevo_token_oauth(camila, aplicacion=claude, alcances=TODO)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/cuentas/login/?next=/cuentas/perfil/")
    pagina.fill("input[name=username]", "camila")
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("button[type=submit]")
    pagina.wait_for_url("**/cuentas/perfil/**")
    pagina.get_by_role("link", name="Cambiar acceso").click()
    pagina.wait_for_url("**/acceso/")
    assert pagina.get_by_role("heading", name="Acceso de Claude").is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"perfil_acceso_conexion_{ancho}")
    pagina.locator("#area-presupuesto").uncheck()
    pagina.locator("#alcance-escribir").uncheck()
    pagina.get_by_role("button", name="Guardar el acceso").click()
    pagina.wait_for_url("**/cuentas/perfil/#aplicaciones")
    assert "El acceso de «Claude» cambió" in pagina.locator("main").inner_text()
    fila = pagina.locator(f'tr[data-aplicacion="{claude.pk}"]').inner_text()
    assert "Solo consultar" in fila and "Presupuesto" not in fila
    assert AccessToken.objects.get().scope == (
        "asistente:calidad asistente:leer asistente:solicitudes"
    )
    assert violaciones == []
