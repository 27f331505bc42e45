"""Sign-in, then straight back to the app, in a real browser: the chain sign-in → authorize →
the client's callback completes whether consent is shown or skipped, whether the person was
signed in or not, for an https and a loopback callback. Chromium applies the sign-in form's
`form-action` to every redirect after its POST: with `'self'` alone it blocked the last one
(the client's callback) and left the person on the sign-in page.

And who is asking, as the sign-in and consent pages say it (screenshots in var/capturas/): a
recognised app by its name, any other as "una aplicación" with its host or on this computer,
the name a client gave itself only quoted as its own description."""

from __future__ import annotations

import pytest
from oauth2_provider.models import Grant

from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.autorizacion.factories import REDIRECCION, emitir_token, nueva_aplicacion
from tests.autorizacion.flujo import Pedido, consulta
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

HTTPS = "https://claude.ai/api/mcp/auth_callback"
DESCONOCIDA = "https://asistente.example.net/oauth/callback"
# .invalid never resolves (RFC 2606): the browser's try is all the test needs to see.
RETORNOS = {"https": "https://cliente.invalid/oauth/callback", "loopback": REDIRECCION}


def _escuchar(pagina, retorno: str) -> list[str]:
    """The client at its callback: the browser's request is answered here (an https host the
    test cannot reach, or a loopback port nobody listens on), and its URL kept."""
    recibido: list[str] = []

    def cliente(ruta):
        recibido.append(ruta.request.url)
        ruta.fulfill(status=200, body="Listo", content_type="text/plain")

    pagina.route(retorno + "**", cliente)
    return recibido


def _ingresar(pagina, usuario: str = "camila") -> None:
    pagina.get_by_label("Usuario").fill(usuario)
    pagina.get_by_label("Contraseña", exact=True).fill(CONTRASENA)
    pagina.get_by_role("button", name="Ingresar").click()


@pytest.mark.parametrize("retorno", RETORNOS)
@pytest.mark.parametrize("consentimiento", ["shown", "skipped"])
@pytest.mark.parametrize("sesion", ["signed_out", "signed_in"])
def test_the_person_ends_at_the_apps_callback_with_a_code(
    navegador, retorno, consentimiento, sesion
):
    from playwright.sync_api import Error

    persona = UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    app = nueva_aplicacion("MCP CLI Proxy", redirect_uris=RETORNOS[retorno])
    if consentimiento == "skipped":
        emitir_token(persona, app)
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    if sesion == "signed_in":
        pagina.goto(pagina.base + "/cuentas/login/")
        _ingresar(pagina)
        pagina.wait_for_url(pagina.base + "/")
    pedido = Pedido(client_id=app.client_id, redirect_uri=RETORNOS[retorno])
    # The browser's request to the callback (its answer does not matter: nothing listens there,
    # and a redirect straight from a navigation is not routed by Playwright).
    al_cliente = pagina.expect_request(lambda p: p.url.startswith(RETORNOS[retorno] + "?"))
    with al_cliente as peticion:
        try:
            pagina.goto(pagina.base + pedido.url())
        except Error:  # signed in, consent skipped: the navigation ends at the unreachable app
            assert sesion == "signed_in" and consentimiento == "skipped"
        if sesion == "signed_out":
            pagina.wait_for_url("**/cuentas/login/**")
            _ingresar(pagina)
        if consentimiento == "shown":
            pagina.wait_for_url("**/oauth/authorize?**")
            pagina.get_by_role("button", name="Autorizar").click()
    datos = consulta(peticion.value.url)
    assert datos["state"] == pedido.state and datos["code"]
    assert Grant.objects.filter(user=persona, application=app).count() == 1
    assert violaciones == []


CLIENTES = {
    # (redirect URI, what the sign-in page says, what the consent page says)
    "reconocida": (
        HTTPS,
        "Claude (claude.ai) espera que usted ingrese",
        ["Claude", "Reconocida, no verificada", "«MCP CLI Proxy»", "claude.ai"],
    ),
    "https_desconocida": (
        DESCONOCIDA,
        "Una aplicación que volverá a asistente.example.net espera que usted ingrese",
        ["Una aplicación de asistente.example.net", "No verificada", "«MCP CLI Proxy»"],
    ),
    "loopback": (
        REDIRECCION,
        "Una aplicación en este equipo espera que usted ingrese",
        ["Una aplicación en este equipo", "No verificada", "«MCP CLI Proxy»"],
    ),
}


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
@pytest.mark.parametrize("cliente", CLIENTES)
def test_the_sign_in_and_consent_pages_say_who_is_asking(
    navegador, reconocidos, cliente, ancho, alto
):
    marca_demo.cargar(ContextoDemo())
    UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", permisos=["mcp.asistente.usar"]
    )
    retorno, en_ingreso, en_consentimiento = CLIENTES[cliente]
    app = nueva_aplicacion("MCP CLI Proxy", redirect_uris=retorno)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    recibido = _escuchar(pagina, retorno)
    pedido = Pedido(client_id=app.client_id, redirect_uri=retorno)
    pagina.goto(pagina.base + pedido.url())
    pagina.wait_for_url("**/cuentas/login/**")
    texto = " ".join(pagina.locator("main").inner_text().split())
    assert en_ingreso in texto, texto
    assert "MCP CLI Proxy" not in texto  # the name a stranger typed is not who asks
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_ingreso_{cliente}_{ancho}")
    _ingresar(pagina)
    pagina.wait_for_url("**/oauth/authorize?**")
    texto = " ".join(pagina.locator("main").inner_text().split())
    for esperado in en_consentimiento:
        assert esperado in texto, (esperado, texto)
    assert "33418" not in texto  # an app on this computer, not a port
    assert "Camila Rojas" in texto
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_consentimiento_{cliente}_{ancho}")
    pagina.get_by_role("button", name="Autorizar").click()
    pagina.wait_for_url(retorno + "?**")
    assert consulta(recibido[-1])["state"] == pedido.state
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_an_error_for_an_unvouched_client_stays_on_the_hubs_page_with_a_link(
    navegador, ancho, alto
):
    marca_demo.cargar(ContextoDemo())
    UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    app = nueva_aplicacion("Claude oficial", redirect_uris=DESCONOCIDA)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    recibido = _escuchar(pagina, DESCONOCIDA)
    pedido = Pedido(client_id=app.client_id, redirect_uri=DESCONOCIDA, scope="zzz")
    pagina.goto(pagina.base + pedido.url())
    _ingresar(pagina)
    pagina.wait_for_url("**/oauth/authorize?**")
    assert pagina.get_by_role("heading", name="No se pudo conectar la aplicación").is_visible()
    assert "permisos que este hub no ofrece" in pagina.locator("main").inner_text()
    assert recibido == []
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"oauth_error_sin_aval_{ancho}")
    pagina.get_by_role("link", name="Volver a asistente.example.net con este error").click()
    pagina.wait_for_url(DESCONOCIDA + "?**")
    datos = consulta(recibido[-1])
    assert datos["error"] == "invalid_scope" and datos["state"] == pedido.state
    assert violaciones == []


def test_an_error_that_goes_back_to_a_loopback_app_reaches_it_after_the_sign_in(navegador):
    UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    app = nueva_aplicacion("MCP CLI Proxy")
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    recibido = _escuchar(pagina, REDIRECCION)
    pedido = Pedido(client_id=app.client_id, scope="zzz")
    pagina.goto(pagina.base + pedido.url())
    _ingresar(pagina)
    pagina.wait_for_url(REDIRECCION + "?**")
    datos = consulta(recibido[-1])
    assert datos["error"] == "invalid_scope" and datos["state"] == pedido.state
    assert violaciones == []
