"""Contact limits: 3 per 10 minutes and 20 per day, per IP and site; fails closed without cache."""

from __future__ import annotations

import pytest
from django.test import override_settings

from apps.notificaciones.models import MensajeContacto
from tests.caches import CACHE_MUERTA
from tests.notificaciones.ayudas import cuerpo, poner_limites

pytestmark = pytest.mark.django_db


def _es_429(r, *, limite: str) -> None:
    assert r.status_code == 429
    datos = r.json()
    assert datos["success"] is False
    assert datos["error"]["code"] == "RATE_LIMIT"
    assert r["X-RateLimit-Limit"] == limite
    assert r["X-RateLimit-Remaining"] == "0"


def test_every_accepted_message_carries_both_windows_in_its_headers(enviar, portal):
    r = enviar(cuerpo())
    assert r.status_code == 201
    assert r["X-RateLimit-Limit"] == "3"
    assert r["X-RateLimit-Remaining"] == "2"
    assert r["X-RateLimit-Limit-Dia"] == "20"
    assert r["X-RateLimit-Remaining-Dia"] == "19"


def test_the_fourth_message_in_ten_minutes_is_429_with_retry_after(enviar, portal):
    restantes = [enviar(cuerpo())["X-RateLimit-Remaining"] for _ in range(3)]
    assert restantes == ["2", "1", "0"]
    r = enviar(cuerpo())
    _es_429(r, limite="3")
    assert 1 <= int(r["Retry-After"]) <= 600
    assert r["X-RateLimit-Limit-Dia"] == "20"
    assert r["X-RateLimit-Remaining-Dia"] == "17"
    assert MensajeContacto.objects.count() == 3


def test_refused_messages_do_not_consume_the_daily_quota(enviar, portal):
    for _ in range(3):
        enviar(cuerpo())
    for _ in range(5):
        assert enviar(cuerpo()).status_code == 429
    assert enviar(cuerpo())["X-RateLimit-Remaining-Dia"] == "17"


def test_invalid_bodies_do_not_consume_the_quota(enviar, portal):
    for _ in range(5):
        assert enviar(cuerpo(correo="no-es-correo")).status_code == 422
    assert [enviar(cuerpo()).status_code for _ in range(4)] == [201, 201, 201, 429]


def test_the_daily_limit_applies_when_the_ten_minute_window_has_room(enviar, portal):
    poner_limites(diez_minutos=100, dia=4)
    assert [enviar(cuerpo()).status_code for _ in range(4)] == [201] * 4
    r = enviar(cuerpo())
    _es_429(r, limite="4")
    assert 1 <= int(r["Retry-After"]) <= 24 * 60 * 60
    assert r["X-RateLimit-Limit-Dia"] == "4"
    assert r["X-RateLimit-Remaining-Dia"] == "0"
    assert MensajeContacto.objects.count() == 4


def test_the_headers_report_the_tightest_window(enviar, portal):
    poner_limites(diez_minutos=5, dia=3)
    r = enviar(cuerpo())
    assert (r["X-RateLimit-Limit"], r["X-RateLimit-Remaining"]) == ("3", "2")
    poner_limites(diez_minutos=2, dia=20)
    enviar(cuerpo(), ip="198.51.100.20")
    r = enviar(cuerpo(), ip="198.51.100.20")
    assert (r["X-RateLimit-Limit"], r["X-RateLimit-Remaining"]) == ("2", "0")
    assert (r["X-RateLimit-Limit-Dia"], r["X-RateLimit-Remaining-Dia"]) == ("20", "18")


def test_another_site_from_the_same_ip_is_not_blocked(enviar, portal, sede):
    for _ in range(3):
        enviar(cuerpo(sitio="portal"))
    assert enviar(cuerpo(sitio="portal")).status_code == 429
    r = enviar(cuerpo(sitio="sede"))
    assert r.status_code == 201
    assert r["X-RateLimit-Remaining"] == "2"


def test_another_ip_on_the_same_site_is_not_blocked(enviar, portal):
    for _ in range(3):
        enviar(cuerpo(), ip="203.0.113.10")
    assert enviar(cuerpo(), ip="203.0.113.10").status_code == 429
    r = enviar(cuerpo(), ip="203.0.113.11")
    assert r.status_code == 201
    assert r["X-RateLimit-Remaining"] == "2"


def test_ipv6_addresses_of_one_64_network_share_the_quota(enviar, portal):
    for sufijo in ("1", "2", "abcd"):
        assert enviar(cuerpo(), ip=f"2001:db8:1:2::{sufijo}").status_code == 201
    assert enviar(cuerpo(), ip="2001:db8:1:2:ffff::9").status_code == 429
    assert enviar(cuerpo(), ip="2001:db8:1:3::1").status_code == 201


def test_a_forged_forwarded_for_does_not_escape_the_limit(enviar, portal):
    for i in range(3):
        enviar(cuerpo(), HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
    assert enviar(cuerpo(), HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_a_changed_limit_applies_at_once(enviar, portal):
    poner_limites(diez_minutos=1)
    assert enviar(cuerpo()).status_code == 201
    _es_429(enviar(cuerpo()), limite="1")


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_the_form_fails_closed_with_503_and_stores_nothing(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks, caplog
):
    with django_capture_on_commit_callbacks(execute=True):
        r = enviar(cuerpo())
    assert r.status_code == 503
    datos = r.json()
    assert datos["success"] is False
    assert datos["error"]["code"] == "SERVICIO_NO_DISPONIBLE"
    assert "X-RateLimit-Limit" not in r
    assert MensajeContacto.objects.count() == 0
    assert mailoutbox == []
    assert "falla cerrado" in caplog.text


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_a_honeypot_message_is_503_too(enviar, portal):
    r = enviar(cuerpo(sitio_web="https://spam.example"))
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "SERVICIO_NO_DISPONIBLE"
