"""The official MCP Python SDK's OAuthClientProvider against a live server, the way Claude, ChatGPT
or VS Code connect (issue 25, "Must show"): 401 -> protected resource metadata -> authorization
server metadata -> registration -> the person signs in on the hub's page and approves -> token ->
tools/list (the same as with the person's personal token) -> a tool call -> refresh -> revocation
-> 401. Django's test client plays the person (sign-in form and consent form)."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from django.test import Client as Navegador
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from apps.mcp.models import AjustesAsistente, RegistroAuditoria
from tests.calidad.factories import DocumentoFactory, ProcesoFactory
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token

pytestmark = pytest.mark.django_db(transaction=True)

CLAVE = "clave-de-prueba-123"  # UserFactory's password
RETORNO = "http://127.0.0.1:33418/callback"  # a loopback redirect (RFC 8252), as desktop apps use


class Memoria:
    """The SDK's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.cliente: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.cliente

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.cliente = client_info


AREAS_TODAS = ("solicitudes", "presupuesto", "calidad")


class Persona:
    """The person at the browser: signs in on the hub's page and approves on the consent page."""

    def __init__(self, usuario: str, areas: tuple[str, ...] = AREAS_TODAS) -> None:
        self.usuario = usuario
        self.areas = list(areas)  # the areas the person leaves ticked
        self.navegador = Navegador()
        self.paginas: list[tuple[str, int]] = []
        self.respuesta: AuthorizationCodeResult | None = None

    def _aprobar(self, url: str) -> None:
        partes = urlsplit(url)
        destino = f"{partes.path}?{partes.query}"
        r = self.navegador.get(destino)
        self.paginas.append(("autorizar", r.status_code))
        assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/"), r
        ingreso = self.navegador.post(r["Location"], {"username": self.usuario, "password": CLAVE})
        self.paginas.append(("ingreso", ingreso.status_code))
        assert ingreso.status_code == 302 and ingreso["Location"] == destino, ingreso
        consentimiento = self.navegador.get(destino)
        self.paginas.append(("consentimiento", consentimiento.status_code))
        assert consentimiento.status_code == 200
        html = consentimiento.content.decode()
        assert "Asistente SDK" in html and "No verificada" in html
        formulario = consentimiento.context["form"]
        datos = {n: v for n, v in formulario.initial.items() if v is not None}
        decision = self.navegador.post(
            "/oauth/authorize",
            {**datos, "allow": "Autorizar", "escribir": "1", "areas": self.areas},
        )
        self.paginas.append(("decision", decision.status_code))
        assert decision.status_code == 302 and decision["Location"].startswith(RETORNO)
        consulta = {k: v[0] for k, v in parse_qs(urlsplit(decision["Location"]).query).items()}
        self.respuesta = AuthorizationCodeResult(
            code=consulta["code"], state=consulta.get("state"), iss=consulta.get("iss")
        )

    async def redirigir(self, url: str) -> None:
        # The test client touches the database: outside the event loop's thread.
        await asyncio.to_thread(self._aprobar, url)

    async def volver(self) -> AuthorizationCodeResult:
        assert self.respuesta is not None
        return self.respuesta


@pytest.fixture
def hub(live_server, settings):
    """The live server as the public address: the resource, the issuer and the metadata."""
    settings.HUB_URL_PUBLICA = live_server.url
    # The library's issuer (the `iss` of the authorization response) is read from HUB_URL_PUBLICA
    # when the settings load (hub/settings.py); here the address is only known now.
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "OIDC_ISS_ENDPOINT": live_server.url}
    AjustesAsistente.olvidar()
    DocumentoFactory(
        codigo_publicado="GTH-PR-004",
        titulo="Procedimiento de vacaciones",
        proceso=ProcesoFactory(sigla="GTH", nombre="Gestión del Talento Humano"),
    )
    persona = UserFactory(
        username="sofia_sdk",
        permisos=["mcp.asistente.usar", "solicitudes.ver_todas", "solicitudes.radicar"],
    )
    _, personal = nuevo_token(persona)
    return live_server.url, persona, personal


def _traza(registro: list[tuple[str, str, int]]):
    async def respuesta(r: httpx2.Response) -> None:
        registro.append((r.request.method, r.request.url.path, r.status_code))

    return respuesta


async def _sesion(url: str, proveedor, registro) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(
            auth=proveedor, timeout=30, event_hooks={"response": [_traza(registro)]}
        ) as http,
        Client(streamable_http_client(url, http_client=http)) as cliente,
    ):
        herramientas = await cliente.list_tools()
        documentos = await cliente.call_tool("buscar_documento", {"texto": "vacaciones"})
        return {"herramientas": {h.name for h in herramientas.tools}, "documentos": documentos}


async def _lista_con_token_personal(url: str, personal: str) -> set[str]:
    async with (
        httpx2.AsyncClient(headers={"X-MCP-User-Token": personal}, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http)) as cliente,
    ):
        return {h.name for h in (await cliente.list_tools()).tools}


def _ping(url: str, acceso: str) -> httpx.Response:
    return httpx.post(
        url,
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"Authorization": f"Bearer {acceso}"},
        timeout=10,
    )


def proveedor_sdk(url: str, almacen, humana, alcance: str) -> OAuthClientProvider:
    """The SDK's OAuth provider as a public client registering itself, the person at hand."""
    return OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="Asistente SDK",
            redirect_uris=[RETORNO],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
            scope=alcance,
        ),
        storage=almacen,
        redirect_handler=humana.redirigir,
        callback_handler=humana.volver,
    )


def test_the_official_sdk_signs_in_with_oauth_and_uses_the_hub_as_the_person(hub):
    base, persona, personal = hub
    url = f"{base}/mcp/api/mcp"
    almacen = Memoria()
    humana = Persona("sofia_sdk")
    proveedor = proveedor_sdk(url, almacen, humana, "asistente:leer asistente:escribir")
    traza: list[tuple[str, str, int]] = []

    # First connection: discovery, registration, sign-in and consent, token, then the calls.
    r = asyncio.run(_sesion(url, proveedor, traza))
    # (Before it, the SDK may probe a newer protocol revision: 400 VERSION_NO_SOPORTADA.)
    inicio = traza.index(("POST", "/mcp/api/mcp", 401))
    assert traza[inicio + 1 : inicio + 6] == [
        ("GET", "/.well-known/oauth-protected-resource/mcp/api/mcp", 200),
        ("GET", "/.well-known/oauth-authorization-server", 200),
        ("POST", "/oauth/register", 201),
        ("POST", "/oauth/token", 200),
        ("POST", "/mcp/api/mcp", 200),
    ]
    assert all(s != 401 for _m, _p, s in traza[inicio + 1 :])
    assert [p for p, _s in humana.paginas] == ["autorizar", "ingreso", "consentimiento", "decision"]

    primero = almacen.tokens
    assert primero.access_token.startswith("sgioat_")
    assert primero.refresh_token.startswith("sgiort_")
    # Every area left ticked on the consent page: the grant names them.
    assert set(primero.scope.split()) == {
        "asistente:leer",
        "asistente:escribir",
        *(f"asistente:{a}" for a in AREAS_TODAS),
    }

    # The same person's tools, exactly as with their personal token; a real call.
    assert r["herramientas"] == asyncio.run(_lista_con_token_personal(url, personal))
    assert {"comentar_solicitud", "radicar_mesa_ayuda"} <= r["herramientas"]
    documentos = r["documentos"]
    assert documentos.is_error is False
    assert documentos.structured_content["documentos"][0]["codigo_publicado"] == "GTH-PR-004"
    fila = RegistroAuditoria.objects.get(herramienta="buscar_documento")
    assert (fila.usuario, fila.credencial, fila.cliente_nombre) == (
        persona,
        "oauth",
        "Asistente SDK",
    )

    # The access token expires (as the SDK sees it): the SDK refreshes, the old token is gone.
    proveedor.context.token_expiry_time = time.time() - 1
    traza.clear()
    asyncio.run(_sesion(url, proveedor, traza))
    assert ("POST", "/oauth/token", 200) in traza
    assert ("POST", "/oauth/register", 201) not in traza  # no new registration, no new consent
    assert len(humana.paginas) == 4
    segundo = almacen.tokens
    assert segundo.access_token != primero.access_token
    assert segundo.refresh_token != primero.refresh_token
    assert _ping(url, primero.access_token).status_code == 401
    assert _ping(url, segundo.access_token).status_code == 200

    # Revocation (RFC 7009) of the refresh token ends its access token too: 401 with discovery.
    revocacion = httpx.post(
        f"{base}/oauth/revoke",
        data={
            "token": segundo.refresh_token,
            "token_type_hint": "refresh_token",
            "client_id": almacen.cliente.client_id,
        },
        timeout=10,
    )
    assert revocacion.status_code == 200
    final = _ping(url, segundo.access_token)
    assert final.status_code == 401
    assert final.json()["error"]["code"] == "TOKEN_MCP_INVALIDO"
    assert final.headers["WWW-Authenticate"] == (
        f'Bearer realm="mcp", error="invalid_token", resource_metadata="{base}'
        '/.well-known/oauth-protected-resource/mcp/api/mcp"'
    )


async def _sesion_calidad(url: str, proveedor) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(auth=proveedor, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http)) as cliente,
    ):
        herramientas = await cliente.list_tools()
        documentos = await cliente.call_tool("buscar_documento", {"texto": "vacaciones"})
        presupuesto = await cliente.call_tool("estado_cdp", {"numero": "CDP-1"})
        return {
            "herramientas": {h.name for h in herramientas.tools},
            "documentos": documentos,
            "presupuesto": presupuesto,
        }


def test_the_official_sdk_connected_with_only_calidad_lists_and_calls_only_that_area(hub):
    base, persona, _personal = hub
    url = f"{base}/mcp/api/mcp"
    almacen = Memoria()
    humana = Persona("sofia_sdk", areas=("calidad",))
    proveedor = proveedor_sdk(url, almacen, humana, "asistente:leer")
    r = asyncio.run(_sesion_calidad(url, proveedor))
    # The SDK asks for what the resource offers; the person left only "calidad" ticked.
    concedidos = set(almacen.tokens.scope.split())
    assert concedidos - {"asistente:leer", "asistente:escribir"} == {"asistente:calidad"}
    assert "buscar_documento" in r["herramientas"] and "mis_accesos" in r["herramientas"]
    assert not r["herramientas"] & {"estado_cdp", "buscar_solicitudes", "mis_tareas"}
    assert r["documentos"].is_error is False
    assert r["presupuesto"].is_error is True
    assert r["presupuesto"].structured_content["codigo"] == "SIN_PERMISO"
    fila = RegistroAuditoria.objects.get(herramienta="estado_cdp")
    assert (fila.usuario, fila.resultado) == (persona, "SIN_PERMISO")
    # The person reads those calls on "Actividad del asistente", under the app's name.
    navegador = Navegador()
    navegador.force_login(persona)
    pagina = navegador.get("/cuentas/perfil/actividad/").content.decode()
    for herramienta, codigo in (("buscar_documento", "ok"), ("estado_cdp", "SIN_PERMISO")):
        assert f'data-herramienta="{herramienta}" data-resultado="{codigo}"' in pagina
    assert "Asistente SDK" in pagina
