"""Per-account protection across addresses (issue 23 item 5, OWASP "device cookies").

After a ceiling of failed sign-ins for one account from browsers it does not know, whatever the
addresses, only a browser that already signed in to that account gets in; the person is told by
e-mail once per lock, the admin lists the lock and can end it. Every request here comes through
the trusted proxy with its own X-Forwarded-For, as the probe sent them.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.cuentas import bloqueos, dispositivos, intentos
from apps.cuentas.models import BloqueoIngreso
from apps.marca import services as marca
from hub import settings as ajustes_del_proyecto
from hub.http.ip import redes_confiables
from hub.http.limites import CacheNoDisponible
from tests.factories import CONTRASENA, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/cuentas/login/"
ADMIN_LOGIN = "/admin/login/"
LISTA = "/admin/cuentas/bloqueoingreso/"
PROXY = "127.0.0.1"
CASA = "192.0.2.10"  # where the owner signs in from


def _direccion(n: int) -> str:
    """The n-th address of the attack: a new one every time."""
    return f"203.0.{113 + n // 250}.{n % 250 + 1}"


def _ingresar(navegador: Client, contrasena: str, *, ip: str, usuario: str = "camila", ruta=LOGIN):
    return navegador.post(
        ruta,
        {"username": usuario, "password": contrasena},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=ip,
    )


def _atacar(navegador: Client, veces: int, *, usuario: str = "camila", desde: int = 0) -> list:
    """`veces` wrong passwords for one account, each from another address; their statuses."""
    return [
        _ingresar(navegador, f"mala-{n}", ip=_direccion(n), usuario=usuario).status_code
        for n in range(desde, desde + veces)
    ]


def _aviso(html: str) -> str:
    return " ".join(re.search(r'<p role="alert">(.*?)</p>', html, re.S).group(1).split())


@pytest.fixture(autouse=True)
def _detras_del_proxy(settings):
    settings.HUB_PROXIES_CONFIABLES = redes_confiables(PROXY)
    # A lower ceiling keeps these tests quick; the probe's scenario runs with the default (50).
    settings.HUB_INGRESO_TECHO_CUENTA = 8


@pytest.fixture
def camila():
    return UserFactory(
        username="camila", first_name="Camila", last_name="Rojas", email="camila@entidad.gov.co"
    )


@pytest.fixture
def conocido(camila) -> Client:
    """Camila's own browser: it signed in once (and out again) before the attack."""
    navegador = Client()
    assert _ingresar(navegador, CONTRASENA, ip=CASA).status_code == 302
    navegador.post("/cuentas/logout/")
    mail.outbox.clear()
    return navegador


def test_a_hundred_failures_from_a_hundred_addresses_lock_new_browsers_out_not_a_known_one(
    client, conocido, settings
):
    techo = settings.HUB_INGRESO_TECHO_CUENTA = ajustes_del_proyecto.HUB_INGRESO_TECHO_CUENTA
    assert techo == 50  # the documented default
    respuestas = _atacar(client, 100)
    assert respuestas[:techo] == [200] * techo  # each one a plain refusal, as before
    assert set(respuestas[techo:]) == {429}  # then the account is protected

    # The right password from the attacker's browser, from yet another address: refused.
    r = _ingresar(client, CONTRASENA, ip=_direccion(500))
    assert r.status_code == 429
    assert "_auth_user_id" not in client.session
    # The owner on a browser the account does not know: refused too, with the same page.
    nuevo = Client()
    assert _ingresar(nuevo, CONTRASENA, ip=CASA).status_code == 429
    assert "_auth_user_id" not in nuevo.session
    # The owner's known browser gets in, from wherever.
    r = _ingresar(conocido, CONTRASENA, ip=_direccion(501))
    assert r.status_code == 302 and r["Location"] == "/"
    assert conocido.get("/cuentas/perfil/").status_code == 200


def test_the_lock_page_is_spanish_and_the_same_for_a_right_and_a_wrong_password(client, camila):
    marca.actualizar_marca(cambios={"nombre": "IDGP en línea", "nombre_entidad": "Instituto X"})
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    correcta = _ingresar(client, CONTRASENA, ip=_direccion(900))
    equivocada = _ingresar(client, "otra-mala", ip=_direccion(901))
    assert correcta.status_code == equivocada.status_code == 429
    assert 1 <= int(correcta["Retry-After"]) <= settings.HUB_INGRESO_VENTANA_CUENTA
    assert "no-store" in correcta["Cache-Control"]
    html = correcta.content.decode()
    assert '<h1 id="titulo-tarjeta">Esta cuenta está protegida</h1>' in html
    assert "IDGP en línea" in html
    assert _aviso(html) == _aviso(equivocada.content.decode())
    assert "desde un navegador en el que ya haya ingresado antes" in _aviso(html)
    assert "No revisamos la contraseña que escribió" in html
    assert "mesa de ayuda del Instituto X" in html
    assert "aunque sea la correcta" not in html  # that is the per-address page's sentence


def test_the_person_is_told_by_e_mail_once_per_lock(client, camila):
    marca.actualizar_marca(cambios={"nombre": "IDGP en línea"})
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA + 5)
    [aviso] = mail.outbox
    assert aviso.to == ["camila@entidad.gov.co"]
    assert aviso.subject == "Protegimos el ingreso a su cuenta de IDGP en línea"
    assert "Hola, Camila Rojas:" in aviso.body
    assert "«camila»" in aviso.body
    assert f"{settings.HUB_INGRESO_TECHO_CUENTA} intentos fallidos" in aviso.body
    assert "navegadores en los que usted ya haya ingresado antes" in aviso.body
    assert "¿Olvidó su contraseña?" in aviso.body
    # More refused attempts in the same lock: no more e-mail.
    _atacar(client, 5, desde=300)
    assert len(mail.outbox) == 1


def test_the_admin_lists_the_lock_read_only_and_an_administrator_can_end_it(client, camila):
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    [bloqueo] = BloqueoIngreso.objects.all()
    assert bloqueo.usuario == camila and bloqueo.cuenta == "camila"
    assert bloqueo.fallos == settings.HUB_INGRESO_TECHO_CUENTA
    assert bloqueo.avisado_en is not None and bloqueo.levantado_en is None

    jefa = UserFactory(username="jefa", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(jefa)
    html = admin.get(LISTA).content.decode()
    assert "Bloqueos de ingreso" in html
    assert ">camila</" in html and "Activo" in html
    assert admin.get(LISTA + "add/").status_code == 403
    detalle = admin.get(f"{LISTA}{bloqueo.pk}/change/").content.decode()
    assert 'name="_save"' not in detalle  # shown, not edited

    r = admin.post(LISTA, {"action": "levantar", "_selected_action": [bloqueo.pk]}, follow=True)
    assert "Se levantó 1 bloqueo." in r.content.decode()
    bloqueo.refresh_from_db()
    assert bloqueo.levantado_por == jefa and bloqueo.levantado_en is not None
    assert "Levantado" in admin.get(LISTA).content.decode()
    # A new browser gets in again, and the count starts over.
    assert _ingresar(Client(), CONTRASENA, ip=CASA).status_code == 302
    assert set(_atacar(client, settings.HUB_INGRESO_TECHO_CUENTA - 1, desde=600)) == {200}


def test_staff_without_permission_cannot_end_a_lock(client, camila):
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    bloqueo = BloqueoIngreso.objects.get()
    curioso = Client()
    curioso.force_login(UserFactory(username="curioso", is_staff=True))
    assert curioso.get(LISTA).status_code == 403
    curioso.post(LISTA, {"action": "levantar", "_selected_action": [bloqueo.pk]})
    bloqueo.refresh_from_db()
    assert bloqueo.levantado_en is None


def test_a_stranger_cannot_lock_the_owner_out_of_a_known_browser(client, conocido):
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    # The owner mistypes on the known browser: the ordinary refusal, not the lock page.
    r = _ingresar(conocido, "me-equivoque", ip=CASA)
    assert r.status_code == 200
    assert "No fue posible ingresar con esos datos." in r.content.decode()
    assert _ingresar(conocido, CONTRASENA, ip=CASA).status_code == 302


def test_failures_from_a_known_browser_do_not_count_towards_the_accounts_ceiling(
    client, conocido, settings
):
    settings.HUB_INGRESO_TECHO_CUENTA = 5
    # Five failures from the known browser, each from another address: the account is not locked.
    assert _atacar(conocido, 5) == [200] * 5
    assert _ingresar(client, CONTRASENA, ip=CASA).status_code == 302


def test_a_known_browser_has_its_own_failure_budget(client, conocido, settings):
    settings.HUB_INGRESO_FALLOS_DISPOSITIVO = 3
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    # Someone holding the device cookie guesses from many addresses: 3 tries, then it is a
    # browser like any other, and the account is locked for those.
    assert _atacar(conocido, 3, desde=700) == [200] * 3
    assert _ingresar(conocido, CONTRASENA, ip=CASA).status_code == 429


@pytest.mark.parametrize("falsa", ["otra-cuenta", "alterada", "basura"])
def test_a_forged_or_another_accounts_device_cookie_is_not_trusted(client, camila, falsa):
    UserFactory(username="jorge")
    de_jorge = Client()
    assert _ingresar(de_jorge, CONTRASENA, ip=CASA, usuario="jorge").status_code == 302
    valor_jorge = de_jorge.cookies[dispositivos.nombre_cookie("jorge")].value
    valor = {
        "otra-cuenta": valor_jorge,  # jorge's own cookie, put under camila's name
        "alterada": "x" + valor_jorge[1:],
        "basura": "abc:def:ghi",
    }[falsa]
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    impostor = Client()
    impostor.cookies[dispositivos.nombre_cookie("camila")] = valor
    assert _ingresar(impostor, CONTRASENA, ip=CASA).status_code == 429
    # And jorge's cookie under its own name does not open camila's account either.
    assert _ingresar(de_jorge, CONTRASENA, ip=CASA).status_code == 429


def test_below_the_ceiling_a_new_browser_still_gets_in(client, camila):
    assert set(_atacar(client, settings.HUB_INGRESO_TECHO_CUENTA - 1)) == {200}
    assert _ingresar(Client(), CONTRASENA, ip=CASA).status_code == 302
    assert BloqueoIngreso.objects.count() == 0 and mail.outbox == []


def test_an_account_that_does_not_exist_gets_the_same_lock_and_nobody_is_written_to(client):
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA, usuario="nadie")
    r = _ingresar(client, CONTRASENA, ip=CASA, usuario="nadie")
    assert r.status_code == 429
    assert "Esta cuenta está protegida" in r.content.decode()
    assert BloqueoIngreso.objects.count() == 0 and mail.outbox == []


def test_the_admin_sign_in_is_protected_the_same_way(client, settings):
    settings.HUB_INGRESO_TECHO_CUENTA = 5
    UserFactory(username="marta", is_staff=True)
    for n in range(5):
        _ingresar(client, "mala", ip=_direccion(n), usuario="marta", ruta=ADMIN_LOGIN)
    r = _ingresar(Client(), CONTRASENA, ip=CASA, usuario="marta", ruta=ADMIN_LOGIN)
    assert r.status_code == 429 and "Esta cuenta está protegida" in r.content.decode()


def test_the_ceiling_counts_the_account_whatever_its_case(client, camila, settings):
    settings.HUB_INGRESO_TECHO_CUENTA = 6
    for n, nombre in enumerate(["camila", "CAMILA", " Camila "] * 2):
        _ingresar(client, "mala", ip=_direccion(n), usuario=nombre)
    assert _ingresar(Client(), CONTRASENA, ip=CASA).status_code == 429


def test_the_device_cookie_is_http_only_lax_long_lived_and_names_no_account(camila, settings):
    settings.SESSION_COOKIE_SECURE = True  # as in production
    navegador = Client()
    r = _ingresar(navegador, CONTRASENA, ip=CASA)
    nombre = dispositivos.nombre_cookie("camila")
    galleta = r.cookies[nombre]
    assert "camila" not in nombre and "camila" not in galleta.value
    assert galleta["httponly"] is True
    assert galleta["secure"] is True
    assert galleta["samesite"] == "Lax"
    assert galleta["path"] == "/"
    assert int(galleta["max-age"]) == settings.HUB_INGRESO_DISPOSITIVO_DIAS * 86400
    # Each successful sign-in issues a fresh one.
    navegador.post("/cuentas/logout/")
    otra = _ingresar(navegador, CONTRASENA, ip=CASA).cookies[nombre].value
    assert otra != galleta.value


def test_an_expired_device_cookie_is_not_trusted(client, conocido, settings, monkeypatch):
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    despues = time.time() + settings.HUB_INGRESO_DISPOSITIVO_DIAS * 86400 + 60
    monkeypatch.setattr(dispositivos.signing, "time", SimpleNamespace(time=lambda: despues))
    assert _ingresar(conocido, CONTRASENA, ip=CASA).status_code == 429


def test_counting_keeps_the_per_address_brake(client, camila, settings):
    settings.HUB_INGRESO_TECHO_CUENTA = 50
    # Ten failures for camila from one address still close that address for her (issue 13).
    for _ in range(intentos.POR_CUENTA):
        _ingresar(client, "mala", ip=CASA)
    r = _ingresar(client, CONTRASENA, ip=CASA)
    assert r.status_code == 429 and "Demasiados intentos de ingreso" in r.content.decode()


def test_when_the_account_count_cannot_be_read_sign_in_fails_closed(client, camila, monkeypatch):
    def sin_cache(**kwargs):
        raise CacheNoDisponible("caida")

    monkeypatch.setattr(bloqueos, "contar", sin_cache)  # the per-address brake still counts
    r = _ingresar(client, CONTRASENA, ip=CASA)
    assert r.status_code == 503
    assert "El ingreso no está disponible en este momento" in r.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_known_browser_does_not_need_the_account_count(conocido, monkeypatch):
    contados = []
    original = bloqueos.contar
    monkeypatch.setattr(bloqueos, "contar", lambda **k: contados.append(k) or original(**k))
    with CaptureQueriesContext(connection) as consultas:
        assert _ingresar(conocido, CONTRASENA, ip=CASA).status_code == 302
    # Neither the count nor the lock's query: the device cookie answers first.
    assert contados == []
    assert not [q for q in consultas.captured_queries if "cuentas_bloqueoingreso" in q["sql"]]


def test_an_unknown_browser_costs_one_query_for_the_lock(client, camila):
    with CaptureQueriesContext(connection) as consultas:
        assert _ingresar(client, "mala", ip=CASA).status_code == 200
    sql = [q["sql"] for q in consultas.captured_queries if "cuentas_bloqueoingreso" in q["sql"]]
    assert len(sql) == 1
