"""The branded sign-in page, sign-in itself and sign-out."""

from __future__ import annotations

import re

import pytest

from apps.marca import services
from apps.marca.models import DEFAULTS
from tests.factories import CONTRASENA, UserFactory
from tests.navegador_csp import vigilar_csp

pytestmark = pytest.mark.django_db

LOGIN = "/cuentas/login/"
LOGOUT = "/cuentas/logout/"
PERFIL = "/cuentas/perfil/"
INICIO = "/"  # where signing in lands: the person's tasks


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


def test_a_correct_sign_in_goes_to_the_home_with_the_persons_tasks(client):
    UserFactory(username="camila")
    r = client.post(LOGIN, {"username": "camila", "password": CONTRASENA})
    assert r.status_code == 302
    assert r["Location"] == INICIO
    assert client.get(INICIO).status_code == 200


def test_a_safe_next_address_is_honoured(client):
    UserFactory(username="camila")
    r = client.post(LOGIN + "?next=/admin/", {"username": "camila", "password": CONTRASENA})
    assert r["Location"] == "/admin/"


def test_a_foreign_next_address_is_ignored(client):
    UserFactory(username="camila")
    r = client.post(
        LOGIN, {"username": "camila", "password": CONTRASENA, "next": "https://malo.example/"}
    )
    assert r["Location"] == INICIO


def _rechazo(html: str) -> str:
    """The text of the refusal box of the sign-in page."""
    return re.search(r'<div class="alerta" role="alert"><p>(.*?)</p>', html, re.S).group(1)


def test_a_wrong_password_shows_a_spanish_error_and_does_not_sign_in(client):
    UserFactory(username="camila")
    r = client.post(LOGIN, {"username": "camila", "password": "equivocada"})
    assert r.status_code == 200
    html = r.content.decode()
    assert _rechazo(html).startswith("No fue posible ingresar con esos datos.")
    assert "_auth_user_id" not in client.session
    assert client.get(PERFIL)["Location"].startswith(LOGIN)


def test_the_refusal_sends_staff_to_their_help_desk_not_to_the_citizens_address(client):
    services.actualizar_marca(
        cambios={
            "nombre_entidad": "Instituto X",
            "contacto_correo": "atencionciudadana@x.gov.co",
            "mesa_ayuda_correo": "mesa@x.gov.co",
        }
    )
    html = client.post(LOGIN, {"username": "nadie", "password": "x"}).content.decode()
    texto = _rechazo(html)
    assert "Si su cuenta está bloqueada, comuníquese con la mesa de ayuda del Instituto X." in texto
    assert "¿Olvidó su contraseña?" in texto
    assert 'Correo: <a href="mailto:mesa@x.gov.co">mesa@x.gov.co</a>' in html
    alerta = html.split('class="alerta"', 1)[1].split("</div>", 1)[0]
    assert "atencionciudadana@" not in alerta


def test_without_a_help_desk_address_the_refusal_shows_none(client):
    services.actualizar_marca(
        cambios={"nombre_entidad": "Secretaría Y", "contacto_correo": "atencionciudadana@y.gov.co"}
    )
    html = client.post(LOGIN, {"username": "nadie", "password": "x"}).content.decode()
    assert "comuníquese con la mesa de ayuda de la Secretaría Y." in _rechazo(html)
    assert "Correo:" not in html.split('class="alerta"', 1)[1].split("</div>", 1)[0]


def test_the_brand_may_set_the_article_of_the_organizations_name(client):
    services.actualizar_marca(cambios={"nombre_entidad": "Bogotá Digital", "articulo_entidad": "-"})
    html = client.post(LOGIN, {"username": "nadie", "password": "x"}).content.decode()
    assert "comuníquese con la mesa de ayuda de Bogotá Digital." in _rechazo(html)


def test_the_refusal_is_the_same_whatever_the_cause(client):
    """Wrong password, unknown user, blocked account with the right or a wrong password: the
    same words, so the answer never tells that a password was right."""
    UserFactory(username="camila")
    UserFactory(username="bloqueado", is_active=False)
    textos = {
        _rechazo(client.post(LOGIN, datos).content.decode())
        for datos in (
            {"username": "camila", "password": "equivocada"},
            {"username": "nadie", "password": CONTRASENA},
            {"username": "bloqueado", "password": CONTRASENA},
            {"username": "bloqueado", "password": "equivocada"},
        )
    }
    assert len(textos) == 1
    assert "_auth_user_id" not in client.session


def test_the_admin_sign_in_refuses_with_the_same_words(client):
    """Wrong password, blocked staff and a non-staff person with the right password: one text."""
    UserFactory(username="marta", is_staff=True)
    UserFactory(username="jorge", is_staff=True, is_active=False)
    UserFactory(username="camila")
    textos = set()
    for datos in (
        {"username": "marta", "password": "equivocada"},
        {"username": "jorge", "password": CONTRASENA},
        {"username": "camila", "password": CONTRASENA},
    ):
        html = client.post("/admin/login/", {**datos, "next": "/admin/"}).content.decode()
        textos.add(re.search(r'<p class="errornote" role="alert">(.*?)</p>', html, re.S).group(1))
        assert "mailto:" not in html or 'class="correo-contacto"' in html
    assert len(textos) == 1
    assert textos.pop().startswith("No fue posible ingresar con esos datos.")


def test_empty_fields_get_spanish_messages(client):
    html = client.post(LOGIN, {"username": "", "password": ""}).content.decode()
    assert "Escriba su usuario." in html
    assert "Escriba su contraseña." in html


def test_a_blocked_account_cannot_sign_in(client):
    UserFactory(username="bloqueado", is_active=False)
    r = client.post(LOGIN, {"username": "bloqueado", "password": CONTRASENA})
    assert r.status_code == 200
    assert "No fue posible ingresar con esos datos." in r.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_sign_in_offers_the_password_reset_and_a_show_password_button(client):
    html = client.get(LOGIN).content.decode()
    assert '<a href="/cuentas/clave/olvido/">¿Olvidó su contraseña?</a>' in html
    assert "data-mostrar-clave" in html
    assert '<script src="/static/hub/mostrar_clave.js" defer></script>' in html
    admin = client.get("/admin/login/").content.decode()
    assert '<a href="/cuentas/clave/olvido/">¿Olvidó su contraseña?</a>' in admin
    assert "data-mostrar-clave" in admin


def test_a_signed_in_person_is_sent_from_sign_in_to_the_home(client):
    client.force_login(UserFactory())
    r = client.get(LOGIN)
    assert r.status_code == 302
    assert r["Location"] == INICIO


def test_sign_out_by_post_ends_the_session_and_returns_to_sign_in(client):
    client.force_login(UserFactory())
    r = client.post(LOGOUT)
    assert r.status_code == 302
    assert r["Location"] == LOGIN
    assert "_auth_user_id" not in client.session
    assert client.get(PERFIL)["Location"].startswith(LOGIN)


def test_after_signing_out_the_sign_in_page_says_so_once(client):
    client.force_login(UserFactory())
    html = client.post(LOGOUT, follow=True).content.decode()
    assert '<p class="ingreso-aviso" role="status">Cerró su sesión.' in html
    assert "Cerró su sesión." not in client.get(LOGIN).content.decode()


def test_signing_out_of_the_admin_returns_to_the_admin_sign_in_with_the_message(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    r = client.post("/admin/logout/")
    assert r.status_code == 302 and r["Location"] == "/admin/login/"
    html = client.get(r["Location"]).content.decode()
    assert "Cerró su sesión." in html
    assert "_auth_user_id" not in client.session


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
    pagina.get_by_label("Contraseña").fill(CONTRASENA)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(pagina.base + INICIO)
    # Let the page's own requests (e.g. /favicon.ico) finish before the live server stops.
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
