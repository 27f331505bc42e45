"""Sign-in throttling: failed sign-ins per account + address and per address, then 429."""

from __future__ import annotations

import logging
import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest

from apps.cuentas import intentos
from apps.marca import services as marca
from hub.http.limites import CacheNoDisponible
from tests.cuentas.ingreso import ADMIN, CONTRASENA, IP, LOGIN, OTRA_IP, fallar, ingresar
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_ten_failures_for_an_account_then_even_the_right_password_gets_429(client, camila):
    marca.actualizar_marca(cambios={"nombre": "IDGP en línea"})
    fallar(client, intentos.POR_CUENTA)
    r = ingresar(client, "camila", CONTRASENA)
    assert r.status_code == 429
    assert 1 <= int(r["Retry-After"]) <= intentos.VENTANA
    assert "no-store" in r["Cache-Control"]
    html = r.content.decode()
    assert '<h1 id="titulo-tarjeta">Demasiados intentos de ingreso</h1>' in html
    assert "IDGP en línea" in html  # the branded base page
    assert "aunque sea la correcta" in html
    assert 'href="/cuentas/clave/olvido/"' in html
    assert "Content-Security-Policy" in r
    assert "_auth_user_id" not in client.session


def test_the_count_is_per_account_and_address_not_a_lock_out_by_a_stranger(client, camila):
    fallar(client, intentos.POR_CUENTA, ip=OTRA_IP)  # a stranger guesses from elsewhere
    r = ingresar(client, "camila", CONTRASENA, ip=IP)
    assert r.status_code == 302
    assert r["Location"] == "/"


def test_the_ninth_and_tenth_failures_are_still_answered(client, camila):
    fallar(client, intentos.POR_CUENTA - 1)
    r = ingresar(client, "camila", CONTRASENA)
    assert r.status_code == 302  # the tenth attempt, right, goes in


def test_only_failures_count(client, camila):
    for _ in range(intentos.POR_CUENTA + 5):
        assert ingresar(client, "camila", CONTRASENA).status_code == 302
        client.logout()


def test_thirty_failures_from_one_address_block_every_account_from_it(client, camila):
    for n in range(intentos.POR_DIRECCION):
        # A different account name each time: only the per-address count fills up.
        fallar(client, 1, usuario=f"persona{n}")
    assert ingresar(client, "camila", CONTRASENA).status_code == 429
    assert ingresar(client, "camila", CONTRASENA, ip=OTRA_IP).status_code == 302


def test_the_account_name_is_counted_whatever_its_case(client, camila):
    for nombre in ["camila", "CAMILA", " Camila "] * 4:
        ingresar(client, nombre, "equivocada")
    assert ingresar(client, "camila", CONTRASENA).status_code == 429


def test_the_staff_and_admin_sign_in_pages_share_the_count(client, camila):
    UserFactory(username="marta", is_staff=True)
    fallar(client, 5, usuario="marta", ruta=LOGIN)
    fallar(client, 5, usuario="marta", ruta=ADMIN)
    r = client.post(
        ADMIN, {"username": "marta", "password": CONTRASENA, "next": "/admin/"}, REMOTE_ADDR=IP
    )
    assert r.status_code == 429
    assert "Demasiados intentos de ingreso" in r.content.decode()
    assert ingresar(client, "marta", CONTRASENA, ruta=LOGIN).status_code == 429


def test_when_the_window_passes_the_right_password_is_accepted(client, camila, monkeypatch):
    fallar(client, intentos.POR_CUENTA)
    bloqueada = ingresar(client, "camila", CONTRASENA)
    assert bloqueada.status_code == 429
    despues = time.time() + int(bloqueada["Retry-After"]) + 1
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: despues))
    assert ingresar(client, "camila", CONTRASENA).status_code == 302


def test_a_hundred_wrong_passwords_then_the_right_one_is_refused(client, camila):
    respuestas = [ingresar(client, "camila", f"mala{n}").status_code for n in range(100)]
    assert respuestas[: intentos.POR_CUENTA] == [200] * intentos.POR_CUENTA
    assert set(respuestas[intentos.POR_CUENTA :]) == {429}
    assert ingresar(client, "camila", CONTRASENA).status_code == 429


def test_failed_sign_ins_are_logged_with_account_and_address_never_the_password(
    client, camila, caplog
):
    secreta = "Mi-clave-secreta-987"
    with caplog.at_level(logging.INFO):
        ingresar(client, "camila", secreta)
        client.post(ADMIN, {"username": "camila", "password": secreta}, REMOTE_ADDR=IP)
    fallidos = [r for r in caplog.records if r.getMessage().startswith("ingreso fallido")]
    assert len(fallidos) == 2
    assert "usuario='camila'" in fallidos[0].getMessage() and IP in fallidos[0].getMessage()
    assert all(secreta not in r.getMessage() and secreta not in str(r.args) for r in caplog.records)


def test_without_the_cache_sign_in_fails_closed_with_a_branded_503(client, camila, monkeypatch):
    def sin_cache(**kwargs):
        raise CacheNoDisponible("caida")

    monkeypatch.setattr(intentos, "contar", sin_cache)
    r = ingresar(client, "camila", CONTRASENA)
    assert r.status_code == 503
    assert "El ingreso no está disponible en este momento" in r.content.decode()
    assert "_auth_user_id" not in client.session


def test_too_many_password_reset_requests_from_one_address_get_429(client):
    for _ in range(intentos.OLVIDOS_POR_HORA):
        r = client.post("/cuentas/clave/olvido/", {"email": "x@entidad.gov.co"}, REMOTE_ADDR=IP)
        assert r.status_code == 302
    r = client.post("/cuentas/clave/olvido/", {"email": "x@entidad.gov.co"}, REMOTE_ADDR=IP)
    assert r.status_code == 429 and "Retry-After" in r
