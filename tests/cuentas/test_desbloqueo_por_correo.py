"""Unlock by e-mail (issue 35; OWASP "unlock by e-mail"): the lock's e-mail carries a single-use
link, stored only as its digest and good while the lock lasts, to a page whose button (a POST: a
mail scanner opening the link changes nothing) marks the browser it is pressed in as known. A
stranger who locks the account can delay the person, never shut them out."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone

from apps.cuentas import bloqueos, dispositivos
from apps.cuentas.models import BloqueoIngreso
from hub.http.ip import redes_confiables
from tests.factories import CONTRASENA, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/cuentas/login/"
PROXY = "127.0.0.1"
ENLACE = re.compile(r"(https?://\S+/cuentas/desbloquear/(sgi[a-z]{3}_[0-9A-Za-z]+)/)")


def _ingresar(navegador: Client, contrasena: str, ip: str):
    return navegador.post(
        LOGIN,
        {"username": "camila", "password": contrasena},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=ip,
    )


def _atacar(navegador: Client, veces: int, desde: int = 0) -> None:
    for n in range(desde, desde + veces):
        _ingresar(navegador, f"mala-{n}", f"203.0.113.{n % 250 + 1}")


@pytest.fixture(autouse=True)
def _detras_del_proxy(settings):
    settings.HUB_PROXIES_CONFIABLES = redes_confiables(PROXY)
    settings.HUB_INGRESO_TECHO_CUENTA = 5
    settings.HUB_URL_PUBLICA = "https://hub.entidad.example"


@pytest.fixture
def camila():
    return UserFactory(username="camila", first_name="Camila", email="camila@entidad.gov.co")


@pytest.fixture
def enlace(client, camila) -> tuple[str, str]:
    """The lock opened by a stranger; (the link in its e-mail, the link's secret)."""
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA)
    [aviso] = mail.outbox
    url, secreto = ENLACE.search(aviso.body).groups()
    return url, secreto


def _ruta(url: str) -> str:
    return url.removeprefix(settings.HUB_URL_PUBLICA)


def _cookie(respuesta) -> str | None:
    nombre = dispositivos.nombre_cookie("camila")
    return respuesta.cookies[nombre].value if nombre in respuesta.cookies else None


def test_the_lock_e_mail_carries_a_single_use_link_stored_only_as_its_digest(enlace):
    url, secreto = enlace
    assert url.startswith("https://hub.entidad.example/cuentas/desbloquear/sgides_")
    bloqueo = BloqueoIngreso.objects.get()
    assert bloqueo.enlace_huella == hashlib.sha256(secreto.encode()).hexdigest()
    assert secreto not in str(BloqueoIngreso.objects.values().get())
    [aviso] = mail.outbox
    assert "Reconocer este navegador" in aviso.body and "una sola vez" in aviso.body


def test_opening_the_link_changes_nothing_and_logs_no_secret(enlace, caplog):
    url, secreto = enlace
    navegador = Client()
    for _ in range(2):  # a mail scanner, then the person
        r = navegador.get(_ruta(url))
        assert r.status_code == 200
        assert r["Cache-Control"] == "no-store" and r["Referrer-Policy"] == "same-origin"
        html = r.content.decode()
        assert '<form method="post"' in html and "Reconocer este navegador" in html
        assert _cookie(r) is None
    assert BloqueoIngreso.objects.get().desbloqueado_en is None
    assert _ingresar(navegador, CONTRASENA, "198.51.100.7").status_code == 429
    assert "/cuentas/desbloquear/" in caplog.text and secreto not in caplog.text


def test_pressing_the_button_lets_this_browser_sign_in_while_the_lock_lasts(enlace):
    url, _ = enlace
    navegador = Client(enforce_csrf_checks=True)
    navegador.get(_ruta(url))
    r = navegador.post(_ruta(url), {"csrfmiddlewaretoken": navegador.cookies["csrftoken"].value})
    assert r.status_code == 200 and "Este navegador quedó reconocido" in r.content.decode()
    assert _cookie(r) is not None
    assert BloqueoIngreso.objects.get().desbloqueado_en is not None
    assert BloqueoIngreso.objects.activos().count() == 1  # other browsers stay locked out
    assert _ingresar(Client(), CONTRASENA, "198.51.100.8").status_code == 429
    mismo = Client()  # the same browser (its cookies), signing in without the CSRF dance
    mismo.cookies = navegador.cookies
    r = _ingresar(mismo, CONTRASENA, "198.51.100.7")
    assert r.status_code == 302 and r["Location"] == "/"


def test_the_link_works_once(enlace):
    url, _ = enlace
    assert _cookie(Client().post(_ruta(url))) is not None
    otro = Client()
    r = otro.post(_ruta(url))
    assert r.status_code == 410 and _cookie(r) is None
    assert "Este enlace ya se usó" in r.content.decode()
    assert otro.get(_ruta(url)).status_code == 410


@pytest.mark.parametrize("fin", ["terminado", "levantado"])
def test_the_link_ends_with_its_lock(enlace, camila, fin):
    url, _ = enlace
    if fin == "terminado":
        BloqueoIngreso.objects.update(hasta=timezone.now() - timedelta(seconds=1))
    else:
        bloqueos.levantar(bloqueos=BloqueoIngreso.objects.all(), por=UserFactory())
    r = Client().post(_ruta(url))
    assert r.status_code == 410 and _cookie(r) is None
    assert "Este enlace ya no sirve" in r.content.decode()


@pytest.mark.parametrize("secreto", ["sgides_" + "A" * 38, "cualquier-cosa", "sgimcp_x"])
def test_an_unknown_or_malformed_link_is_404(client, secreto):
    assert client.get(f"/cuentas/desbloquear/{secreto}/").status_code == 404
    r = client.post(f"/cuentas/desbloquear/{secreto}/")
    assert r.status_code == 404 and _cookie(r) is None


def test_a_stranger_locking_again_cannot_shut_the_person_out(client, enlace):
    url, _ = enlace
    navegador = Client()
    navegador.post(_ruta(url))
    # The lock ends; the stranger opens another one: one more e-mail, with a new link.
    BloqueoIngreso.objects.update(hasta=timezone.now() - timedelta(seconds=1))
    _atacar(client, settings.HUB_INGRESO_TECHO_CUENTA, desde=100)
    assert BloqueoIngreso.objects.activos().count() == 1 and len(mail.outbox) == 2
    assert ENLACE.search(mail.outbox[1].body).group(2) != ENLACE.search(mail.outbox[0].body).group(
        2
    )
    assert _ingresar(navegador, CONTRASENA, "198.51.100.9").status_code == 302
