"""People see who is asking: the administrator's recognised callback hosts name a client whose
every redirect URI is on one of them; any other is "una aplicación" with its host, or on this
computer; a name the client gave itself is only quoted as its own description, and never on the
sign-in page (anyone can craft a link that names any client). The sign-in page reached from a
valid authorization request may end its form at that request's redirect origin, and nowhere
else."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.autorizacion import reconocidas
from apps.autorizacion.models import AnfitrionReconocido, Aplicacion
from tests.autorizacion.factories import REDIRECCION, nueva_aplicacion
from tests.autorizacion.flujo import Pedido
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CLAUDE = "https://claude.ai/api/mcp/auth_callback"
LOGIN = "/cuentas/login/"


def test_the_migration_seeds_claude_chatgpt_and_visual_studio_code(reconocidos):
    assert reconocidas.anfitriones() == {
        "claude.ai": "Claude",
        "claude.com": "Claude",
        "chatgpt.com": "ChatGPT",
        "vscode.dev": "Visual Studio Code",
    }


def test_the_list_is_read_from_the_cache_and_an_edit_is_seen_at_once(reconocidos):
    reconocidas.anfitriones()
    with CaptureQueriesContext(connection) as consultas:
        assert reconocidas.anfitriones()["claude.ai"] == "Claude"
    assert [q["sql"] for q in consultas if "anfitrion" in q["sql"]] == []
    fila = AnfitrionReconocido.objects.get(anfitrion="claude.ai")
    fila.nombre = "Claude (Anthropic)"
    fila.save()
    assert reconocidas.anfitriones()["claude.ai"] == "Claude (Anthropic)"
    AnfitrionReconocido.objects.filter(anfitrion="chatgpt.com").delete()
    assert "chatgpt.com" not in reconocidas.anfitriones()


@pytest.mark.parametrize(
    ("uris", "nombre", "anfitrion", "local", "reconocida", "propia"),
    [
        (CLAUDE, "Claude", "claude.ai", False, True, "MCP CLI Proxy"),
        (f"{CLAUDE} https://claude.ai/otra", "Claude", "claude.ai", False, True, "MCP CLI Proxy"),
        # One URI elsewhere: the code could reach that other host, so it is nobody's app.
        (f"{CLAUDE} https://evil.example/cb", "", "claude.ai", False, False, "MCP CLI Proxy"),
        ("https://claude.ai.evil.example/cb", "", "claude.ai.evil.example", False, False, None),
        ("https://evil.example/cb", "", "evil.example", False, False, "MCP CLI Proxy"),
        (REDIRECCION, "", "", True, False, "MCP CLI Proxy"),
    ],
)
def test_who_a_client_is_shown_as(reconocidos, uris, nombre, anfitrion, local, reconocida, propia):
    app = nueva_aplicacion("MCP CLI Proxy", redirect_uris=uris)
    p = reconocidas.presentar(app, uris.split()[0])
    assert (p.nombre, p.anfitrion, p.en_este_equipo, p.reconocida) == (
        nombre,
        anfitrion,
        local,
        reconocida,
    )
    assert p.descripcion_propia == (propia or "MCP CLI Proxy")
    assert p.como_se_llama == (
        nombre or ("una aplicación en este equipo" if local else "una aplicación")
    )


def test_a_verified_client_is_shown_by_the_name_the_administrator_checked(reconocidos):
    app = nueva_aplicacion("Asistente de la entidad", redirect_uris=REDIRECCION, verificada=True)
    p = reconocidas.presentar(app, REDIRECCION)
    assert p.nombre == "Asistente de la entidad" and p.descripcion_propia == ""


def test_a_host_is_written_bare_and_in_lower_case():
    with pytest.raises(Exception) as error:
        AnfitrionReconocido(anfitrion="https://claude.ai/", nombre="Claude").full_clean()
    assert "anfitrion" in error.value.error_dict
    fila = AnfitrionReconocido(anfitrion="Example.ORG", nombre="Ejemplo")
    fila.full_clean()  # validators see what the admin typed; save() folds the case
    fila.save()
    assert AnfitrionReconocido.objects.get(pk=fila.pk).anfitrion == "example.org"


def test_an_administrator_keeps_the_list_in_the_admin(client, reconocidos):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    lista = client.get("/admin/autorizacion/anfitrionreconocido/")
    assert lista.status_code == 200
    html = lista.content.decode()
    assert "Anfitriones reconocidos" in html and "claude.ai" in html and "ChatGPT" in html
    r = client.post(
        "/admin/autorizacion/anfitrionreconocido/add/",
        {"anfitrion": "gemini.google.com", "nombre": "Gemini"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    assert reconocidas.anfitriones()["gemini.google.com"] == "Gemini"


# --- The sign-in page reached from an authorization request ------------------------------------


def _ingreso(client, app: Aplicacion, **campos):
    pedido = Pedido(client_id=app.client_id, redirect_uri=app.redirect_uris.split()[0], **campos)
    r = client.get(pedido.url())
    assert r.status_code == 302 and r["Location"].startswith(LOGIN + "?next=")
    return client.get(r["Location"])


def test_the_sign_in_page_names_a_recognised_app_and_allows_its_callback(client, reconocidos):
    app = nueva_aplicacion("MCP CLI Proxy", redirect_uris=CLAUDE)
    r = _ingreso(client, app)
    html = r.content.decode()
    assert "<strong>Claude</strong> (claude.ai) espera que usted ingrese" in html
    assert "MCP CLI Proxy" not in html
    assert r["Content-Security-Policy"].endswith("form-action 'self' https://claude.ai")


def test_the_sign_in_page_never_shows_a_name_a_stranger_typed(client, reconocidos):
    app = nueva_aplicacion("Claude", redirect_uris="https://evil.example/cb")
    html = _ingreso(client, app).content.decode()
    assert "<strong>Una aplicación</strong> que volverá a <strong>evil.example</strong>" in html
    assert ">Claude<" not in html and "Claude" not in html.split("<main", 1)[1]


def test_the_sign_in_page_says_a_loopback_app_is_on_this_computer(client):
    r = _ingreso(client, nueva_aplicacion("MCP CLI Proxy"))
    assert "<strong>Una aplicación en este equipo</strong> espera" in r.content.decode()
    assert r["Content-Security-Policy"].endswith("form-action 'self' http://127.0.0.1:33418")


@pytest.mark.parametrize(
    "siguiente",
    [
        "/cuentas/perfil/",
        "/oauth/authorize?client_id=desconocido&response_type=code",
        "https://evil.example/oauth/authorize",
        "//evil.example/oauth/authorize",
    ],
)
def test_no_other_destination_widens_the_sign_in_forms_targets(client, siguiente):
    nueva_aplicacion("MCP CLI Proxy")
    r = client.get(LOGIN, {"next": siguiente})
    assert r.status_code == 200
    assert r["Content-Security-Policy"].endswith("form-action 'self'")
    assert "espera que usted ingrese" not in r.content.decode()


def test_an_invalid_request_from_an_unvouched_client_widens_nothing(client):
    app = nueva_aplicacion("MCP CLI Proxy", redirect_uris="https://evil.example/cb")
    r = _ingreso(client, app, scope="zzz")
    assert r["Content-Security-Policy"].endswith("form-action 'self'")
    assert "espera que usted ingrese" not in r.content.decode()


def test_an_invalid_request_whose_error_goes_back_allows_that_callback(client):
    # After the sign-in, its invalid_scope goes back to the loopback app: the chain ends there.
    r = _ingreso(client, nueva_aplicacion("MCP CLI Proxy"), scope="zzz")
    assert r["Content-Security-Policy"].endswith("form-action 'self' http://127.0.0.1:33418")


def test_a_failed_sign_in_keeps_the_waiting_app_and_its_callback(client):
    UserFactory(username="camila")
    app = nueva_aplicacion("MCP CLI Proxy")
    url = Pedido(client_id=app.client_id).url()
    r = client.post(LOGIN, {"username": "camila", "password": "equivocada", "next": url})
    assert r.status_code == 200
    assert "Una aplicación en este equipo</strong> espera" in r.content.decode()
    assert r["Content-Security-Policy"].endswith("form-action 'self' http://127.0.0.1:33418")
