"""«Cambiar contraseña» on the profile: Django's view, branded and in Spanish, behind the sign-in
brake, and every other session of the person ended after the change."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from apps.cuentas import intentos
from tests.cuentas.ingreso import CONTRASENA, IP, LOGIN, ingresar
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RUTA = "/cuentas/clave/cambiar/"
NUEVA = "Otra-clave-larga-2026"


def _cambiar(client, actual: str, nueva: str = NUEVA, repetida: str | None = None):
    datos = {"old_password": actual, "new_password1": nueva, "new_password2": repetida or nueva}
    return client.post(RUTA, datos, REMOTE_ADDR=IP)


def _dentro(client) -> bool:
    return client.get("/cuentas/perfil/").status_code == 200


def test_the_profile_links_to_the_branded_spanish_page(navegante):
    perfil = navegante.get("/cuentas/perfil/").content.decode()
    assert f'href="{RUTA}">Cambiar contraseña</a>' in perfil
    r = navegante.get(RUTA)
    assert r.status_code == 200
    html = r.content.decode()
    assert '<h1 id="titulo-tarjeta">Cambiar contraseña</h1>' in html
    for etiqueta in ("Contraseña actual", "Contraseña nueva", "Repita la contraseña nueva"):
        assert f">{etiqueta}</label>" in html
    assert "las demás sesiones abiertas con su usuario se cierran" in html


def test_an_anonymous_person_is_sent_to_sign_in(client):
    r = client.get(RUTA)
    assert r.status_code == 302
    assert r.headers["Location"] == f"{LOGIN}?next={RUTA}"


def test_the_change_keeps_this_session_and_ends_every_other_of_the_person(persona):
    aqui, alla, ajeno = Client(), Client(), Client()
    for navegador, usuario in ((aqui, persona), (alla, persona), (ajeno, UserFactory())):
        assert ingresar(navegador, usuario.username, CONTRASENA).status_code == 302
    clave_alla = alla.session.session_key
    r = _cambiar(aqui, CONTRASENA)
    assert r.status_code == 302
    assert r.headers["Location"] == "/cuentas/perfil/"
    persona.refresh_from_db()
    assert persona.check_password(NUEVA)
    assert not Session.objects.filter(session_key=clave_alla).exists()
    assert "Su contraseña cambió." in aqui.get("/cuentas/perfil/").content.decode()
    assert not _dentro(alla)
    assert _dentro(ajeno)  # someone else's session is not touched
    assert ingresar(Client(), persona.username, NUEVA).status_code == 302


def test_a_wrong_current_password_is_refused_in_spanish_and_changes_nothing(navegante, persona):
    r = _cambiar(navegante, "equivocada")
    assert r.status_code == 200
    assert "La contraseña actual no es correcta. Escríbala de nuevo." in r.content.decode()
    persona.refresh_from_db()
    assert persona.check_password(CONTRASENA)


def test_mismatched_or_weak_new_passwords_are_refused_beside_their_field(navegante, persona):
    r = _cambiar(navegante, CONTRASENA, repetida="Otra-cosa-distinta-9")
    assert "Las dos contraseñas no coinciden." in r.content.decode()
    r = _cambiar(navegante, CONTRASENA, nueva="123")
    assert r.status_code == 200
    assert r.context["form"].errors["new_password2"]
    persona.refresh_from_db()
    assert persona.check_password(CONTRASENA)


def test_wrong_current_passwords_count_as_failed_sign_ins_until_429(navegante, persona):
    for _ in range(intentos.POR_CUENTA):
        assert _cambiar(navegante, "equivocada").status_code == 200
    r = _cambiar(navegante, CONTRASENA)  # even the right one, before it is checked
    assert r.status_code == 429
    assert "Retry-After" in r
    persona.refresh_from_db()
    assert persona.check_password(CONTRASENA)
    # The same brake as the sign-in: the account is refused there from this address too.
    assert ingresar(Client(), persona.username, CONTRASENA).status_code == 429
