"""An error found at the authorization endpoint before any hub page was shown is sent back to the
client only when its address is vouched for: a verified client, a recognised callback host,
loopback or a private-use scheme. Anyone else gets the hub's own page, the error in Spanish and
the client's address as a link the person may choose to follow (RFC 9700 4.11.2): registering is
open, and otherwise any stranger's address is one link away from the hub's good name.

Also: `prompt=none` for a person who never approved the client is `consent_required` (OpenID
Connect Core 3.1.2.6), and a PKCE challenge outside RFC 7636 4.2 (43 to 128 unreserved
characters) is `invalid_request`, both under the same rule."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from oauth2_provider.models import Grant

from apps.autorizacion import reconocidas
from apps.autorizacion.models import AnfitrionReconocido, Aplicacion
from tests.autorizacion.flujo import Pedido, aprobar, conectar, consulta, registrar
from tests.factories import CONTRASENA, UserFactory

pytestmark = pytest.mark.django_db

AJENA = "https://evil.example/landing"


@pytest.fixture
def ajena(client):
    """A client anyone could have registered, returning to a host nobody vouched for."""
    datos = registrar(client, redirecciones=(AJENA,), nombre="Claude oficial").json()
    return Aplicacion.objects.get(client_id=datos["client_id"])


def _pedido(app: Aplicacion, **campos) -> Pedido:
    return Pedido(client_id=app.client_id, redirect_uri=app.redirect_uris.split()[0], **campos)


def _pagina_del_hub(r, error: str, state: str) -> str:
    """The hub's own page: no redirect, the error in Spanish, a link to the client's address."""
    assert r.status_code == 400, (r.status_code, r.get("Location"))
    assert "Location" not in r
    texto = r.content.decode()
    assert "No se pudo conectar la aplicación" in texto
    enlaces = [html.unescape(h) for h in re.findall(r'href="([^"]*)"', texto)]
    de_vuelta = [e for e in enlaces if e.startswith(AJENA + "?")]
    assert len(de_vuelta) == 1, enlaces
    datos = consulta(de_vuelta[0])
    assert datos["error"] == error and datos["state"] == state and "code" not in datos
    assert "evil.example" in texto and error in texto
    return texto


VARIANTES = {
    "invalid_scope": ({"scope": "zzz"}, ""),
    "plain_pkce": ({"metodo": "plain", "reto": "x" * 43}, ""),
    "implicit": ({}, "response_type=token"),
}


def _url(pedido: Pedido, reemplazo: str) -> str:
    url = pedido.url()
    return url.replace("response_type=code", reemplazo) if reemplazo else url


@pytest.mark.parametrize("variante", VARIANTES)
def test_an_error_for_an_unvouched_client_shows_the_hubs_page_not_a_redirect(
    sesion, ajena, variante
):
    campos, reemplazo = VARIANTES[variante]
    pedido = _pedido(ajena, state="xyz", **campos)
    r = sesion.get(_url(pedido, reemplazo))
    error = {"invalid_scope": "invalid_scope", "implicit": "unsupported_response_type"}.get(
        variante, "invalid_request"
    )
    texto = _pagina_del_hub(r, error, "xyz")
    assert "Siga el enlace solo si" in texto
    assert not Grant.objects.exists()


def test_the_invalid_scope_page_says_what_went_wrong_in_spanish(sesion, ajena):
    r = sesion.get(_pedido(ajena, scope="zzz", state="xyz").url())
    texto = _pagina_del_hub(r, "invalid_scope", "xyz")
    assert "permisos que este hub no ofrece" in texto


def test_a_person_not_signed_in_sees_the_hubs_page_after_signing_in(client, ajena):
    UserFactory(username="ana_error", permisos=["mcp.asistente.usar"])
    url = _pedido(ajena, scope="zzz", state="xyz").url()
    r = client.get(url)
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/?next=")
    r = client.post(r["Location"], {"username": "ana_error", "password": CONTRASENA})
    assert r.status_code == 302 and r["Location"] == url
    _pagina_del_hub(client.get(r["Location"]), "invalid_scope", "xyz")


def test_prompt_none_signed_out_for_an_unvouched_client_shows_the_hubs_page(client, ajena):
    r = client.get(_pedido(ajena, state="xyz").url() + "&prompt=none")
    _pagina_del_hub(r, "login_required", "xyz")


def test_prompt_none_signed_in_without_approval_answers_consent_required_on_the_hubs_page(
    sesion, ajena
):
    r = sesion.get(_pedido(ajena, state="xyz").url() + "&prompt=none")
    _pagina_del_hub(r, "consent_required", "xyz")


def test_cancelling_on_the_consent_page_is_a_normal_redirect_even_for_an_unvouched_client(
    sesion, ajena
):
    pedido = _pedido(ajena, state="xyz")
    r = aprobar(sesion, pedido, permitir=False)
    assert r.status_code == 302
    assert r["Location"] == f"{AJENA}?error=access_denied&state=xyz"


def test_a_verified_client_gets_its_errors_by_redirect(sesion, ajena):
    Aplicacion.objects.filter(pk=ajena.pk).update(verificada=True)
    r = sesion.get(_pedido(ajena, scope="zzz", state="xyz").url())
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_scope" and datos["state"] == "xyz"
    assert r["Location"].startswith(AJENA + "?")


def test_a_client_on_a_recognised_host_gets_its_errors_by_redirect(client, sesion, reconocidos):
    datos = registrar(client, redirecciones=("https://claude.ai/api/mcp/auth_callback",)).json()
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    r = sesion.get(_pedido(app, scope="zzz", state="xyz").url())
    assert r.status_code == 302
    assert r["Location"].startswith("https://claude.ai/api/mcp/auth_callback?error=invalid_scope")
    # Once the administrator removes the host, the same client gets the hub's page.
    AnfitrionReconocido.objects.filter(anfitrion="claude.ai").delete()
    r = sesion.get(_pedido(app, scope="zzz", state="xyz").url())
    assert r.status_code == 400 and "Location" not in r


def test_a_loopback_client_gets_its_errors_by_redirect(sesion, app):
    r = sesion.get(Pedido(client_id=app.client_id, scope="zzz", state="xyz").url())
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_scope" and datos["state"] == "xyz"


@pytest.mark.parametrize(
    ("uri", "avalada"),
    [
        ("http://127.0.0.1:33418/callback", True),
        ("http://localhost/cb", True),
        ("http://[::1]:8080/cb", True),
        ("com.example.app:/oauth2redirect", True),
        ("cursor://anysphere.cursor-retrieval/oauth/callback", True),
        ("https://claude.ai/api/mcp/auth_callback", True),
        ("https://chatgpt.com/connector_platform_oauth_redirect", True),
        ("https://evil.example/landing", False),
        ("https://claude.ai.evil.example/cb", False),
        ("http://claude.ai/cb", False),
        ("", False),
    ],
)
def test_which_addresses_get_errors_by_redirect(reconocidos, uri, avalada):
    no_verificada = Aplicacion(verificada=False)
    assert reconocidas.redirige_errores(uri, no_verificada) is avalada
    assert reconocidas.redirige_errores(uri, Aplicacion(verificada=True)) is bool(uri)


# --- prompt=none (OpenID Connect Core 3.1.2.6) --------------------------------------------------


def test_prompt_none_without_approval_answers_consent_required_by_redirect_when_vouched(
    sesion, app
):
    pedido = Pedido(client_id=app.client_id, state="xyz")
    r = sesion.get(pedido.url() + "&prompt=none")
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "consent_required" and datos["state"] == "xyz"
    assert "code" not in datos and not Grant.objects.exists()


def test_prompt_none_signed_out_answers_login_required_by_redirect_when_vouched(app):
    r = Client().get(Pedido(client_id=app.client_id, state="xyz").url() + "&prompt=none")
    assert r.status_code == 302
    assert consulta(r["Location"]) == {"error": "login_required", "state": "xyz"}


def test_prompt_none_for_a_person_without_assistant_access_answers_access_denied(client, app):
    client.force_login(UserFactory(username="sin_asistente"))
    r = client.get(Pedido(client_id=app.client_id, state="xyz").url() + "&prompt=none")
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "access_denied" and datos["state"] == "xyz"


def test_prompt_none_after_an_approval_gives_the_code_without_a_page(sesion, app):
    conectar(sesion, app.client_id)
    r = sesion.get(Pedido(client_id=app.client_id).url() + "&prompt=none")
    assert r.status_code == 302 and "code" in consulta(r["Location"])


# --- PKCE challenge length and alphabet (RFC 7636 4.2) ------------------------------------------


@pytest.mark.parametrize(
    "reto", ["abc", "a" * 42, "a" * 129, "a" * 42 + "+", "a" * 42 + "=", "a" * 42 + " "]
)
def test_a_challenge_outside_rfc_7636_is_refused_at_authorize(sesion, app, reto):
    pedido = Pedido(client_id=app.client_id, reto=reto, state="xyz")
    r = sesion.get(pedido.url())
    assert r.status_code == 302, r.status_code
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_request" and datos["state"] == "xyz"
    assert "code_challenge" in datos["error_description"]


def test_a_short_challenge_from_an_unvouched_client_gets_the_hubs_page(sesion, ajena):
    r = sesion.get(_pedido(ajena, reto="abc", state="xyz").url())
    _pagina_del_hub(r, "invalid_request", "xyz")


@pytest.mark.parametrize("reto", ["a" * 43, "A-._~" + "9" * 123])
def test_a_challenge_of_43_to_128_unreserved_characters_reaches_the_consent_page(sesion, app, reto):
    r = sesion.get(Pedido(client_id=app.client_id, reto=reto).url())
    assert r.status_code == 200 and 'name="allow"' in r.content.decode()
