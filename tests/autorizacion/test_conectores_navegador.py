"""A connector whose registration the hub no longer has, in a real browser at 1280 px and on a
phone (screenshots in var/capturas/): the person signs in and reads what to do, with no way on."""

from __future__ import annotations

import pytest

from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.autorizacion.conectores import CLAUDE_AI
from tests.autorizacion.flujo import Pedido
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_a_person_back_from_a_deleted_connector_is_told_to_add_it_again(navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + Pedido(client_id="registro-borrado", redirect_uri=CLAUDE_AI).url())
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill("clave-de-prueba-123")
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url("**/oauth/authorize?**")
    assert pagina.get_by_role("heading", name="Vuelva a agregar el conector").is_visible()
    texto = pagina.locator("main").inner_text()
    assert "Quite el conector en su asistente y agréguelo de nuevo" in texto
    assert pagina.locator("main a[href^='https://claude']").count() == 0
    assert pagina.get_by_role("button", name="Autorizar").count() == 0
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_conector_desconocido_{ancho}")
    assert violaciones == []
