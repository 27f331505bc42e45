"""The sign-in and consent pages in a real browser, at 1280 px and on a phone (screenshots in
var/capturas/): a person signs in on the hub's page, reads who asks and for what, unticks
writing, approves, and the client gets its code at its loopback address."""

from __future__ import annotations

import pytest
from oauth2_provider.models import Grant

from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.autorizacion.factories import REDIRECCION, nueva_aplicacion
from tests.autorizacion.flujo import Pedido, consulta
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

ANCHOS = [(1280, 900), (390, 844)]


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_person_signs_in_reads_the_consent_page_and_approves_reading_only(navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", permisos=["mcp.asistente.usar"]
    )
    app = nueva_aplicacion("Claude Desktop")
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    recibido: list[str] = []

    def cliente(ruta):  # the assistant listening on its loopback address
        recibido.append(ruta.request.url)
        ruta.fulfill(status=200, body="Listo", content_type="text/plain")

    pagina.route(REDIRECCION + "**", cliente)
    pedido = Pedido(client_id=app.client_id)
    pagina.goto(pagina.base + pedido.url())
    pagina.wait_for_url("**/cuentas/login/**")
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill("clave-de-prueba-123")
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url("**/oauth/authorize?**")
    assert pagina.get_by_role("heading", name="Conectar una aplicación a su cuenta").is_visible()
    texto = pagina.locator("main").inner_text()
    for esperado in ("«Claude Desktop»", "No verificada", "en este equipo", "Camila Rojas"):
        assert esperado in texto, esperado
    assert "33418" not in texto  # a loopback callback is an app on this computer, not a port
    escribir = pagina.get_by_label("Escribir en su nombre")
    assert escribir.is_checked()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_consentimiento_{ancho}")
    escribir.uncheck()
    pagina.get_by_role("button", name="Autorizar").click()
    pagina.wait_for_url(REDIRECCION + "**")
    datos = consulta(recibido[-1])
    assert datos["state"] == pedido.state and datos["code"]
    # Every area stays ticked unless the person unticks one: the grant names them.
    assert Grant.objects.get().scope == (
        "asistente:calidad asistente:leer asistente:presupuesto asistente:solicitudes"
    )
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_person_chooses_the_areas_and_none_is_refused_on_the_page(navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    persona = UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    app = nueva_aplicacion("Claude Desktop")
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    recibido: list[str] = []
    pagina.route(
        REDIRECCION + "**",
        lambda ruta: (
            recibido.append(ruta.request.url),
            ruta.fulfill(status=200, body="Listo", content_type="text/plain"),
        ),
    )
    pedido = Pedido(client_id=app.client_id)
    pagina.goto(pagina.base + pedido.url())
    pagina.get_by_label("Usuario").fill(persona.username)
    pagina.get_by_label("Contraseña", exact=True).fill("clave-de-prueba-123")
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url("**/oauth/authorize?**")
    areas = [pagina.locator(f"#area-{a}") for a in ("solicitudes", "presupuesto", "calidad")]
    for area in areas:
        assert area.is_visible() and area.is_checked()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_consentimiento_areas_{ancho}")
    for area in areas:
        area.uncheck()
    pagina.get_by_role("button", name="Autorizar").click()
    pagina.wait_for_load_state()
    alerta = pagina.get_by_role("alert")
    assert "Elija al menos un área" in alerta.inner_text()
    assert not Grant.objects.exists() and recibido == []
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_consentimiento_sin_areas_{ancho}")
    pagina.locator("#area-calidad").check()
    pagina.get_by_label("Escribir en su nombre").uncheck()
    pagina.get_by_role("button", name="Autorizar").click()
    pagina.wait_for_url(REDIRECCION + "**")
    assert consulta(recibido[-1])["code"]
    assert Grant.objects.get().scope == "asistente:calidad asistente:leer"
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_person_without_assistant_access_sees_why(navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    UserFactory(username="bruno", first_name="Bruno", last_name="Díaz")
    app = nueva_aplicacion("Asistente de Bruno")
    pagina = navegador(ancho, alto)
    pagina.goto(pagina.base + Pedido(client_id=app.client_id).url())
    pagina.get_by_label("Usuario").fill("bruno")
    pagina.get_by_label("Contraseña", exact=True).fill("clave-de-prueba-123")
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url("**/oauth/authorize?**")
    assert pagina.get_by_role("heading", name="No puede conectar aplicaciones").is_visible()
    assert "no tiene acceso al asistente" in pagina.locator("main").inner_text()
    assert pagina.get_by_role("button", name="Autorizar").count() == 0
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_sin_acceso_{ancho}")
    assert not Grant.objects.exists()


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_the_clients_list_in_the_admin_fits_and_is_captured(navegador, ancho, alto):
    from tests.autorizacion.factories import emitir_token

    marca_demo.cargar(ContextoDemo())
    UserFactory(username="marta", is_staff=True, is_superuser=True)
    claude = nueva_aplicacion(
        "Claude", redirect_uris="https://claude.ai/api/mcp/auth_callback", verificada=True
    )
    nueva_aplicacion("VS Code", redirect_uris="http://127.0.0.1:33418/ http://localhost:33418/")
    emitir_token(UserFactory(username="camila"), claude)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/admin/login/?next=/admin/autorizacion/aplicacion/")
    pagina.fill("input[name=username]", "marta")
    pagina.fill("input[name=password]", "clave-de-prueba-123")
    pagina.click("input[type=submit]")
    pagina.wait_for_selector("#result_list")
    assert pagina.get_by_role("heading", name="Aplicaciones conectadas").is_visible()
    if ancho == 1280:
        assert ancho_de_pagina(pagina) <= ancho
        assert pagina.locator(".results").evaluate("e => e.scrollWidth <= e.clientWidth")
    capturar(pagina, f"admin_oauth_aplicaciones_{ancho}")
    assert violaciones == []
