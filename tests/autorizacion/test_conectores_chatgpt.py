"""ChatGPT's connector as it behaves: its two callbacks, `resource` on every request, a client ID
metadata document instead of a registration, and a reconnect that may omit `scope`."""

from __future__ import annotations

import pytest
from django.test import Client
from oauth2_provider import cimd

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.conectores import CHATGPT, CHATGPT_ANTERIOR, codigo, registrar_con
from tests.autorizacion.flujo import MCP, Pedido, aprobar, canjear, consulta, refrescar
from tests.factories import UserFactory
from tests.mcp_cliente import identificar, llamar, resultado_valido

pytestmark = pytest.mark.django_db

DOCUMENTO = "https://chatgpt.com/.well-known/oauth-client/connector.json"
TODOS = "asistente:escribir asistente:leer"


@pytest.fixture
def documentos(monkeypatch):
    """The documents "on the web" (URL -> metadata), served through the fetcher's own seam."""
    publicados: dict[str, dict] = {}
    pedidos: list[str] = []

    def leer(self, client_id):
        pedidos.append(client_id)
        return publicados[client_id], 3600

    monkeypatch.setattr(cimd.SafeMetadataFetcher, "fetch", leer)
    publicados[DOCUMENTO] = {
        "client_id": DOCUMENTO,
        "client_name": "ChatGPT",
        "redirect_uris": [CHATGPT, CHATGPT_ANTERIOR],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    return pedidos


def _conectar(sesion, pedido: Pedido, **mas) -> dict:
    r = canjear(sesion, pedido, codigo(sesion, pedido), **mas)
    assert r.status_code == 200, r.content
    return r.json()


@pytest.mark.parametrize("callback", [CHATGPT, CHATGPT_ANTERIOR])
def test_chatgpt_registers_its_callback_and_signs_in_through_it(client, sesion, callback):
    datos = registrar_con(client, "none", callback, nombre="ChatGPT")
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=callback, resource=MCP)
    r = aprobar(sesion, pedido)
    assert r.status_code == 302 and r["Location"].startswith(callback + "?")
    tokens = canjear(sesion, pedido, consulta(r["Location"])["code"], resource=MCP).json()
    assert identificar(tokens["access_token"]).oauth.recursos == (MCP,)


def test_chatgpt_sends_resource_on_every_request_and_its_tokens_stay_bound(client, sesion):
    datos = registrar_con(client, "none", CHATGPT, nombre="ChatGPT")
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, resource=MCP)
    tokens = _conectar(sesion, pedido, resource=MCP)
    nuevos = refrescar(sesion, datos["client_id"], tokens["refresh_token"], resource=MCP).json()
    assert identificar(nuevos["access_token"]).oauth.recursos == (MCP,)


def test_chatgpt_with_a_metadata_document_signs_in_and_calls_a_tool(client, sesion, documentos):
    """No registration and no administrator switch: the document's https client_id is enough."""
    pedido = Pedido(client_id=DOCUMENTO, redirect_uri=CHATGPT, resource=MCP)
    pagina = sesion.get(pedido.url())
    assert pagina.status_code == 200 and "ChatGPT" in pagina.content.decode()
    assert documentos == [DOCUMENTO]
    app = Aplicacion.objects.get(client_id=DOCUMENTO)
    assert app.registration_source == "cimd" and app.token_endpoint_auth_method == "none"
    tokens = _conectar(sesion, pedido, resource=MCP)
    sesion.logout()
    r = llamar(client, "mis_accesos", {}, Authorization=f"Bearer {tokens['access_token']}")
    assert r.status == 200
    resultado_valido(r, "mis_accesos")
    assert identificar(tokens["access_token"]).oauth.aplicacion.pk == app.pk


def test_the_authorization_server_metadata_offers_metadata_documents(client):
    assert (
        client.get("/.well-known/oauth-authorization-server").json()[
            "client_id_metadata_document_supported"
        ]
        is True
    )


AREAS = ("asistente:calidad", "asistente:presupuesto", "asistente:solicitudes")


@pytest.mark.parametrize(
    ("concedido", "esperado"),
    [("asistente:leer", "asistente:leer"), (TODOS, TODOS)],
)
def test_chatgpt_reconnecting_without_scope_gets_what_the_person_granted_before(
    client, sesion, concedido, esperado
):
    datos = registrar_con(client, "none", CHATGPT, nombre="ChatGPT")
    primero = Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, scope=concedido)
    _conectar(sesion, primero)
    otra_vez = Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, scope=None)
    r = sesion.get(otra_vez.url())
    # Already approved for those scopes: straight back with a code, no wider.
    assert r.status_code == 302, r.content[:300]
    tokens = canjear(sesion, otra_vez, consulta(r["Location"])["code"]).json()
    # Every grant names its areas: the ones ticked the first time (all of them).
    assert tokens["scope"] == " ".join(sorted([*esperado.split(), *AREAS]))


def test_a_first_connection_without_scope_gets_the_defaults(client, sesion):
    datos = registrar_con(client, "none", CHATGPT, nombre="ChatGPT")
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, scope=None)
    pagina = sesion.get(pedido.url())
    assert pagina.status_code == 200
    assert pagina.context["form"].initial["scope"] == "asistente:leer"
    assert _conectar(sesion, pedido)["scope"] == " ".join(sorted(["asistente:leer", *AREAS]))


def test_a_reconnect_without_scope_never_takes_another_persons_grant(client, sesion):
    datos = registrar_con(client, "none", CHATGPT, nombre="ChatGPT")
    otra = Client()
    otra.force_login(UserFactory(username="otra_persona", permisos=["mcp.asistente.usar"]))
    _conectar(otra, Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, scope=TODOS))
    pedido = Pedido(client_id=datos["client_id"], redirect_uri=CHATGPT, scope=None)
    assert sesion.get(pedido.url()).context["form"].initial["scope"] == "asistente:leer"
