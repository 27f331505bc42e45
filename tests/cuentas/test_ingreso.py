"""The branded sign-in page, sign-in itself and sign-out."""

from __future__ import annotations

import re

import pytest

from apps.marca import services
from apps.marca.models import DEFAULTS
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp

pytestmark = pytest.mark.django_db

LOGIN = "/cuentas/login/"
LOGOUT = "/cuentas/logout/"
PERFIL = "/cuentas/perfil/"
CLAVE = "clave-de-prueba-123"


def _png() -> bytes:
    import io

    from PIL import Image

    salida = io.BytesIO()
    Image.new("RGB", (4, 4), (11, 79, 108)).save(salida, format="PNG")
    return salida.getvalue()


def test_fresh_install_sign_in_shows_the_default_title_and_phrases(client):
    r = client.get(LOGIN)
    assert r.status_code == 200
    html = r.content.decode()
    assert DEFAULTS["login_titulo"] in html
    for frase in DEFAULTS["login_bullets"]:
        assert f"<li>{frase}</li>" in html
    assert DEFAULTS["nombre"] in html


def test_sign_in_shows_the_organization_brand(client):
    services.actualizar_marca(
        cambios={
            "modo": "comarca",
            "nombre": "IDGP en línea",
            "tagline": "Trámites en un solo lugar",
            "color_primario": "#0B4F6C",
            "color_acento": "#F2A541",
            "login_titulo": "Ingreso para servidores y contratistas",
            "login_bullets": ["Radique sin papel.", "Consulte su presupuesto."],
        }
    )
    services.guardar_imagen(slot="logo", datos=_png())
    html = client.get(LOGIN).content.decode()
    assert "<h1>Ingreso para servidores y contratistas</h1>" in html
    assert "<title>Ingreso para servidores y contratistas · IDGP en línea</title>" in html
    assert "<li>Radique sin papel.</li>" in html and "<li>Consulte su presupuesto.</li>" in html
    assert "Trámites en un solo lugar" in html
    assert "--color-primario: #0B4F6C;" in html and "--color-acento: #F2A541;" in html
    assert re.search(
        r'<img src="http://testserver/auth/api/v1/auth/marca/archivo/logo\?v=[0-9a-f]{16}" '
        r'alt="IDGP en línea">',
        html,
    )
    for frase in DEFAULTS["login_bullets"]:
        assert frase not in html


@pytest.mark.parametrize(
    ("modo", "credito"), [("hub", True), ("comarca", True), ("marca_blanca", False)]
)
def test_the_powered_by_credit_appears_only_when_the_mode_asks(client, modo, credito):
    services.actualizar_marca(cambios={"modo": modo})
    html = client.get(LOGIN).content.decode()
    assert ("Con tecnología Hub" in html) is credito


def test_the_form_speaks_spanish(client):
    html = client.get(LOGIN).content.decode()
    assert re.search(r'<label for="id_username">Usuario</label>', html)
    assert re.search(r'<label for="id_password">Contraseña</label>', html)
    assert ">Ingresar</button>" in html
    assert '<html lang="es">' in html


def test_a_correct_sign_in_goes_to_the_profile(client):
    UserFactory(username="camila")
    r = client.post(LOGIN, {"username": "camila", "password": CLAVE})
    assert r.status_code == 302
    assert r["Location"] == PERFIL
    assert client.get(PERFIL).status_code == 200


def test_a_safe_next_address_is_honoured(client):
    UserFactory(username="camila")
    r = client.post(LOGIN + "?next=/admin/", {"username": "camila", "password": CLAVE})
    assert r["Location"] == "/admin/"


def test_a_foreign_next_address_is_ignored(client):
    UserFactory(username="camila")
    r = client.post(
        LOGIN, {"username": "camila", "password": CLAVE, "next": "https://malo.example/"}
    )
    assert r["Location"] == PERFIL


def test_a_wrong_password_shows_a_spanish_error_and_does_not_sign_in(client):
    UserFactory(username="camila")
    r = client.post(LOGIN, {"username": "camila", "password": "equivocada"})
    assert r.status_code == 200
    html = r.content.decode()
    assert "Usuario o contraseña incorrectos." in html
    assert 'role="alert"' in html
    assert "_auth_user_id" not in client.session
    assert client.get(PERFIL)["Location"].startswith(LOGIN)


def test_empty_fields_get_spanish_messages(client):
    html = client.post(LOGIN, {"username": "", "password": ""}).content.decode()
    assert "Escriba su usuario." in html
    assert "Escriba su contraseña." in html


def test_a_blocked_account_cannot_sign_in(client):
    UserFactory(username="bloqueado", is_active=False)
    r = client.post(LOGIN, {"username": "bloqueado", "password": CLAVE})
    assert r.status_code == 200
    assert "Usuario o contraseña incorrectos." in r.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_signed_in_person_is_sent_from_sign_in_to_the_profile(client):
    client.force_login(UserFactory())
    r = client.get(LOGIN)
    assert r.status_code == 302
    assert r["Location"] == PERFIL


def test_sign_out_by_post_ends_the_session_and_returns_to_sign_in(client):
    client.force_login(UserFactory())
    r = client.post(LOGOUT)
    assert r.status_code == 302
    assert r["Location"] == LOGIN
    assert "_auth_user_id" not in client.session
    assert client.get(PERFIL)["Location"].startswith(LOGIN)


def test_sign_out_by_get_is_refused(client):
    client.force_login(UserFactory())
    assert client.get(LOGOUT).status_code == 405
    assert client.get(PERFIL).status_code == 200


def test_pages_extending_base_offer_sign_out_to_a_signed_in_person():
    from django.template import engines
    from django.test import RequestFactory

    request = RequestFactory().get(PERFIL)
    request.user = UserFactory(username="camila", first_name="Camila", last_name="Rojas")
    html = engines["django"].from_string('{% extends "base.html" %}').render({}, request)
    assert 'action="/cuentas/logout/"' in html
    assert "Camila Rojas" in html
    assert ">Cerrar sesión</button>" in html


@pytest.fixture
def marca_y_persona():
    """Data made before the browser starts: once Playwright's loop runs in this thread, the ORM
    would see another connection (asgiref locals are per context) that teardown never closes."""
    UserFactory(username="camila")
    services.actualizar_marca(cambios={"modo": "comarca", "nombre": "IDGP en línea"})


@pytest.mark.navegador
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_sign_in_fits_the_screen_and_signs_in(marca_y_persona, navegador):
    pagina = navegador(360, 740)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + LOGIN)
    assert pagina.get_by_role("heading", name="Ingrese con su usuario institucional").is_visible()
    assert pagina.evaluate("document.documentElement.scrollWidth") <= 360
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña").fill(CLAVE)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(pagina.base + PERFIL)
    # Let the page's own requests (e.g. /favicon.ico) finish before the live server stops.
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
