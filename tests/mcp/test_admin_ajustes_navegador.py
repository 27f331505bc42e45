"""The assistant settings in a real headless browser, at 1280 px and on a phone: the groups in
sight, a lifetime changed in hours and saved, no horizontal scroll, no CSP violation."""

from __future__ import annotations

import pytest

from apps.mcp.models import AjustesAsistente
from tests.factories import UserFactory
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

URL = "/admin/mcp/ajustesasistente/1/change/"


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_settings_read_in_groups_and_save_hours(navegador, ancho, alto):
    AjustesAsistente.olvidar()
    AjustesAsistente.cargar()
    UserFactory(username="admin41", is_staff=True, is_superuser=True)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "admin41")
    pagina.goto(pagina.base + URL)
    for grupo in ("Cambios que hace el asistente", "Duración de las conexiones", "Límites de uso"):
        assert pagina.get_by_role("heading", name=grupo).is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"issue41-ajustes-asistente-{ancho}")
    pagina.get_by_label("Cada cuánto el asistente renueva su acceso").fill("2")
    pagina.select_option("#id_oauth_acceso_segundos_1", "horas")
    pagina.click("input[name=_continue]")
    pagina.wait_for_selector(".messagelist")
    AjustesAsistente.olvidar()
    assert AjustesAsistente.cargar().oauth_acceso_segundos == 7200
    assert pagina.input_value("#id_oauth_acceso_segundos_0") == "2"
    assert violaciones == []
