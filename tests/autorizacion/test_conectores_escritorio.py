"""VS Code, Claude Code, Cursor and native desktop clients as they behave: where each looks for
the authorization server's metadata, the protected resource's exact URL, a resource with a
trailing slash, a refresh without `resource`, and private-use URI scheme callbacks (RFC 8252)."""

from __future__ import annotations

import pytest
from oauth2_provider.models import Grant

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.conectores import codigo
from tests.autorizacion.factories import nueva_aplicacion
from tests.autorizacion.flujo import MCP, Pedido, aprobar, canjear, consulta, refrescar, registrar
from tests.mcp_cliente import identificar

pytestmark = pytest.mark.django_db

NATIVA = "com.example.asistente:/oauth/callback"
OIDC = ("id_token", "jwks_uri", "userinfo_endpoint", "subject_types_supported", "claims_supported")


@pytest.mark.parametrize(
    "ruta",
    [
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-authorization-server/mcp/api/mcp",
        "/.well-known/openid-configuration",
    ],
)
def test_vscode_cursor_and_claude_code_find_the_same_metadata_wherever_they_look(client, ruta):
    r = client.get(ruta, HTTP_ACCEPT="text/html,application/json")
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    datos = r.json()
    assert datos == client.get("/.well-known/oauth-authorization-server").json()
    assert datos["issuer"] == "http://127.0.0.1:8000"
    assert not [clave for clave in datos if any(o in clave for o in OIDC)]
    assert "openid" not in datos["scopes_supported"]
    assert not [t for t in datos["response_types_supported"] if "id_token" in t]


@pytest.mark.parametrize(
    "ruta",
    ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp/api/mcp"],
)
def test_vscode_reads_a_resource_that_is_exactly_the_endpoints_url(client, ruta):
    datos = client.get(ruta).json()
    assert datos["resource"] == MCP
    assert datos["authorization_servers"] == ["http://127.0.0.1:8000"]


def test_claude_code_appending_a_slash_to_the_resource_gets_a_token_for_the_endpoint(
    client, sesion, app
):
    pedido = Pedido(client_id=app.client_id, resource=MCP + "/")
    tokens = canjear(sesion, pedido, codigo(sesion, pedido), resource=MCP + "/").json()
    assert identificar(tokens["access_token"]).oauth.para_recurso(MCP)
    nuevos = refrescar(sesion, app.client_id, tokens["refresh_token"], resource=MCP + "/").json()
    assert identificar(nuevos["access_token"]).oauth.para_recurso(MCP)


def test_a_token_asked_without_the_slash_and_refreshed_with_it_names_the_same_resource(sesion, app):
    pedido = Pedido(client_id=app.client_id, resource=MCP)
    tokens = canjear(sesion, pedido, codigo(sesion, pedido), resource=MCP).json()
    r = refrescar(sesion, app.client_id, tokens["refresh_token"], resource=MCP + "/")
    assert r.status_code == 200, r.content
    assert identificar(r.json()["access_token"]).oauth.para_recurso(MCP)


def test_cursor_refreshing_without_resource_stays_bound_to_the_endpoint(sesion, app):
    pedido = Pedido(client_id=app.client_id, resource=MCP)
    tokens = canjear(sesion, pedido, codigo(sesion, pedido), resource=MCP).json()
    nuevos = refrescar(sesion, app.client_id, tokens["refresh_token"]).json()
    assert identificar(nuevos["access_token"]).oauth.recursos == (MCP,)


# --- private-use URI scheme callbacks (RFC 8252 7.1) --------------------------------------------


def test_a_native_client_registers_a_reverse_domain_scheme_and_gets_its_code_there(client, sesion):
    r = registrar(client, redirecciones=[NATIVA], nombre="Asistente de escritorio")
    assert r.status_code == 201, r.content
    pedido = Pedido(client_id=r.json()["client_id"], redirect_uri=NATIVA)
    pagina = sesion.get(pedido.url())
    assert pagina.status_code == 200
    assert "com.example.asistente:" in pagina.content.decode()
    csp = pagina["Content-Security-Policy"] + ";"
    assert "form-action 'self' com.example.asistente:;" in csp
    decision = aprobar(sesion, pedido)
    assert decision.status_code == 302 and decision["Location"].startswith(NATIVA + "?")
    tokens = canjear(sesion, pedido, consulta(decision["Location"])["code"])
    assert tokens.status_code == 200, tokens.content


def test_the_private_scheme_is_allowed_in_form_action_only_for_that_request(client, sesion, app):
    registrar(client, redirecciones=[NATIVA])
    csp = sesion.get(Pedido(client_id=app.client_id).url())["Content-Security-Policy"]
    assert "com.example.asistente" not in csp


@pytest.mark.parametrize(
    "uri",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,hola",
        "file:///etc/passwd",
        "vbscript:msgbox(1)",
        "about:blank",
        "blob:https://evil.example/123",
        "miapp:/callback",  # no period: not reverse-domain
        "cursor://anysphere.cursor-retrieval/oauth/callback",
        "com.example.app:/callback#frag",
        "https://аpple.com/cb",  # Cyrillic а: an internationalized host not in its xn-- form
        "http://127.0.0.1:0/",
        "https://asistente.example:0/cb",
    ],
)
def test_registration_refuses_schemes_and_hosts_that_are_not_callbacks(client, uri):
    r = registrar(client, redirecciones=[uri])
    assert r.status_code == 400, r.content
    assert r.json()["error"] == "invalid_redirect_uri"
    assert not Aplicacion.objects.exists()


def test_an_idn_host_in_its_ascii_form_is_accepted(client):
    r = registrar(client, redirecciones=["https://xn--pple-43d.com/cb"])
    assert r.status_code == 201, r.content


@pytest.mark.parametrize(
    "uri",
    ["miapp:/callback", "javascript:alert(1)", "https://аpple.com/cb", "http://127.0.0.1:0/"],
)
def test_authorize_applies_the_same_rule_to_a_uri_stored_before_it(sesion, uri):
    """A row written past the rule (an old registration, a bulk import): never followed."""
    app = nueva_aplicacion(redirect_uris=uri)
    r = sesion.get(Pedido(client_id=app.client_id, redirect_uri=uri).url())
    assert r.status_code == 400 and "Location" not in r
    assert not Grant.objects.exists()
    assert 'name="allow"' not in r.content.decode()


def test_an_error_after_the_callback_was_checked_goes_back_to_the_private_scheme(client, sesion):
    r = registrar(client, redirecciones=[NATIVA])
    pedido = Pedido(client_id=r.json()["client_id"], redirect_uri=NATIVA, scope="zzz")
    r = sesion.get(pedido.url())
    assert r.status_code == 302 and r["Location"].startswith(NATIVA + "?")
    assert consulta(r["Location"])["error"] == "invalid_scope"


def test_cursor_registering_its_cursor_scheme_among_others_is_refused_whole(client):
    """Cursor's documented registration: `cursor` has no period, so the list is refused (and
    Cursor connects with the personal token, as the README says)."""
    r = registrar(
        client,
        redirecciones=[
            "cursor://anysphere.cursor-mcp/oauth/callback",
            "https://www.cursor.com/agents/mcp/oauth/callback",
            "http://localhost:8787/callback",
        ],
        nombre="Cursor",
    )
    assert r.status_code == 400 and r.json()["error"] == "invalid_redirect_uri"
    assert not Aplicacion.objects.exists()
