"""Honeypot field `sitio_web`: a bot that fills it gets a success and stores nothing."""

from __future__ import annotations

import re

import pytest

from apps.notificaciones.models import MensajeContacto
from tests.notificaciones.ayudas import cuerpo

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "valor", ["https://ofertas.example", "x", 0, 12345, True, False, ["a"], {"url": "b"}]
)
def test_a_filled_honeypot_answers_like_a_success_but_stores_and_sends_nothing(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks, valor
):
    with django_capture_on_commit_callbacks(execute=True):
        real = enviar(cuerpo(), ip="198.51.100.1")
        trampa = enviar(cuerpo(sitio_web=valor), ip="198.51.100.2")
    assert len(mailoutbox) == 1  # only the person's message
    assert MensajeContacto.objects.count() == 1
    assert trampa.status_code == real.status_code == 201
    assert trampa["Content-Type"] == real["Content-Type"]
    a, b = real.json(), trampa.json()
    assert set(a) == set(b)
    assert a["message"] == b["message"]
    assert set(a["data"]) == set(b["data"]) == {"referencia", "recibido_en"}
    assert re.match(r"^CT-[0-9A-HJKMNP-TV-Z]{10}$", b["data"]["referencia"])
    assert len(b["data"]["recibido_en"]) == len(a["data"]["recibido_en"])
    for cabecera in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Limit-Dia"):
        assert trampa[cabecera] == real[cabecera]
    assert MensajeContacto.objects.filter(referencia=b["data"]["referencia"]).count() == 0


@pytest.mark.parametrize("valor", ["", "   ", None])
def test_an_empty_honeypot_is_a_person_whose_message_is_stored(enviar, portal, valor):
    r = enviar(cuerpo(sitio_web=valor))
    assert r.status_code == 201
    assert MensajeContacto.objects.get().referencia == r.json()["data"]["referencia"]


def test_honeypot_messages_count_against_the_limit_like_any_other(enviar, portal):
    for _ in range(3):
        assert enviar(cuerpo(sitio_web="spam")).status_code == 201
    r = enviar(cuerpo())
    assert r.status_code == 429
    assert MensajeContacto.objects.count() == 0


def test_a_honeypot_message_with_bad_fields_gets_the_same_422_as_a_person(enviar, portal):
    persona = enviar(cuerpo(correo="malo"))
    bot = enviar(cuerpo(correo="malo", sitio_web="spam"))
    assert bot.status_code == persona.status_code == 422
    assert bot.json() == persona.json()
