"""Claude's connector (claude.ai and claude.com) as it behaves: it registers with
client_secret_post whatever the metadata advertises, uses its two callbacks, may register twice
for one connection, and registers again when the token endpoint answers 401 invalid_client."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.conectores import (
    CLAUDE_AI,
    CLAUDE_COM,
    basic,
    canje,
    codigo,
    registrar_con,
)
from tests.autorizacion.flujo import Pedido, conectar, refrescar
from tests.mcp_cliente import identificar

pytestmark = pytest.mark.django_db


def _sin_cliente(r) -> None:
    """RFC 6749 5.2: 401 invalid_client, JSON, never cached."""
    assert r.status_code == 401, r.content
    assert r["Content-Type"] == "application/json" and r["Cache-Control"] == "no-store"
    assert r.json()["error"] == "invalid_client"


def _canje_con_secreto(sesion, datos: dict, callback: str = CLAUDE_AI) -> dict:
    """The code exchange after the person's sign-in, the client's secret in the body."""
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=callback)
    return canje(
        pedido,
        codigo(sesion, pedido),
        client_id=datos["client_id"],
        client_secret=datos["client_secret"],
    )


@pytest.mark.parametrize("callback", [CLAUDE_AI, CLAUDE_COM])
def test_claude_registers_for_client_secret_post_and_the_method_is_stored(client, callback):
    datos = registrar_con(client, "client_secret_post", callback)
    assert datos["token_endpoint_auth_method"] == "client_secret_post"
    assert datos["redirect_uris"] == [callback] and datos["client_secret"]
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    assert app.token_endpoint_auth_method == "client_secret_post"
    assert app.client_type == Aplicacion.CLIENT_CONFIDENTIAL


@pytest.mark.parametrize("callback", [CLAUDE_AI, CLAUDE_COM])
def test_claude_signs_in_through_either_callback_and_exchanges_with_its_secret_in_the_body(
    client, sesion, callback
):
    datos = registrar_con(client, "client_secret_post", callback)
    cuerpo = _canje_con_secreto(sesion, datos, callback)
    r = sesion.post("/oauth/token", cuerpo)
    assert r.status_code == 200, r.content
    assert identificar(r.json()["access_token"]).usuario.username == "ana_oauth"


def test_claude_registered_for_post_that_sends_its_secret_by_basic_gets_invalid_client(
    client, sesion
):
    datos = registrar_con(client, "client_secret_post", CLAUDE_AI)
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CLAUDE_AI)
    r = sesion.post(
        "/oauth/token",
        canje(pedido, codigo(sesion, pedido)),
        HTTP_AUTHORIZATION=basic(datos["client_id"], datos["client_secret"]),
    )
    _sin_cliente(r)
    assert not AccessToken.objects.exists()


def test_a_client_registered_for_basic_exchanges_with_basic(client, sesion):
    datos = registrar_con(client, "client_secret_basic", CLAUDE_AI)
    assert Aplicacion.objects.get().token_endpoint_auth_method == "client_secret_basic"
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CLAUDE_AI)
    r = sesion.post(
        "/oauth/token",
        canje(pedido, codigo(sesion, pedido)),
        HTTP_AUTHORIZATION=basic(datos["client_id"], datos["client_secret"]),
    )
    assert r.status_code == 200, r.content


def test_a_client_registered_for_basic_that_sends_its_secret_in_the_body_gets_invalid_client(
    client, sesion
):
    datos = registrar_con(client, "client_secret_basic", CLAUDE_AI)
    cuerpo = _canje_con_secreto(sesion, datos)
    _sin_cliente(sesion.post("/oauth/token", cuerpo))
    assert not AccessToken.objects.exists()


def test_a_client_registered_for_a_secret_that_sends_none_gets_invalid_client(client, sesion):
    datos = registrar_con(client, "client_secret_post", CLAUDE_AI)
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CLAUDE_AI)
    cuerpo = canje(pedido, codigo(sesion, pedido), client_id=datos["client_id"])
    _sin_cliente(sesion.post("/oauth/token", cuerpo))


@pytest.mark.parametrize("por_basic", [False, True])
def test_a_public_client_that_sends_a_secret_gets_invalid_client(client, sesion, por_basic):
    datos = registrar_con(client, "none", CLAUDE_AI)
    assert "client_secret" not in datos
    app = Aplicacion.objects.get()
    assert app.token_endpoint_auth_method == "none"
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CLAUDE_AI)
    cuerpo = canje(pedido, codigo(sesion, pedido))
    if por_basic:
        r = sesion.post("/oauth/token", cuerpo, HTTP_AUTHORIZATION=basic(app.client_id, "algo"))
    else:
        r = sesion.post(
            "/oauth/token", {**cuerpo, "client_id": app.client_id, "client_secret": "algo"}
        )
    _sin_cliente(r)
    assert not AccessToken.objects.exists()


def test_the_refresh_obeys_the_registered_method_too(client, sesion):
    datos = registrar_con(client, "client_secret_post", CLAUDE_AI)
    cuerpo = _canje_con_secreto(sesion, datos)
    tokens = sesion.post("/oauth/token", cuerpo).json()
    r = sesion.post(
        "/oauth/token",
        {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]},
        HTTP_AUTHORIZATION=basic(datos["client_id"], datos["client_secret"]),
    )
    _sin_cliente(r)
    r = refrescar(
        sesion, datos["client_id"], tokens["refresh_token"], client_secret=datos["client_secret"]
    )
    assert r.status_code == 200, r.content


def test_claude_registering_twice_for_one_connection_gets_two_clients_and_either_connects(
    client, sesion
):
    primero = registrar_con(client, "client_secret_post", CLAUDE_AI)
    segundo = registrar_con(client, "client_secret_post", CLAUDE_AI)
    assert primero["client_id"] != segundo["client_id"]
    cuerpo = _canje_con_secreto(sesion, segundo)
    assert sesion.post("/oauth/token", cuerpo).status_code == 200


def test_claude_gets_invalid_client_for_a_disabled_client_so_it_registers_again(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    Aplicacion.objects.filter(pk=app.pk).update(deshabilitada=True)
    _sin_cliente(refrescar(sesion, app.client_id, tokens["refresh_token"]))


def test_claude_gets_invalid_client_for_a_client_that_no_longer_exists(client, sesion):
    datos = registrar_con(client, "client_secret_post", CLAUDE_AI)
    cuerpo = _canje_con_secreto(sesion, datos)
    tokens = sesion.post("/oauth/token", cuerpo).json()
    Aplicacion.objects.all().delete()
    r = refrescar(
        sesion, datos["client_id"], tokens["refresh_token"], client_secret=datos["client_secret"]
    )
    _sin_cliente(r)
    _sin_cliente(sesion.post("/oauth/token", cuerpo))


def test_an_authorization_for_a_client_the_hub_no_longer_knows_asks_to_add_the_connector_again(
    sesion,
):
    r = sesion.get(Pedido(client_id="cliente-borrado", redirect_uri=CLAUDE_AI).url())
    assert r.status_code == 400 and "Location" not in r
    html = r.content.decode()
    assert "El hub ya no reconoce esta conexión" in html
    assert "Quite el conector en su asistente y agréguelo de nuevo" in html
    assert "claude.ai" not in html  # nothing the unknown request named is offered as a link
