"""Forwarding by e-mail to the site's address, after commit; a mail failure loses nothing."""

from __future__ import annotations

import smtplib

import pytest
from django.core.mail import EmailMessage

from apps.notificaciones.models import MensajeContacto
from tests.notificaciones.ayudas import cuerpo
from tests.notificaciones.factories import SitioContactoFactory

pytestmark = pytest.mark.django_db


def test_a_message_is_forwarded_to_the_site_address_with_reply_to_the_sender(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks, settings
):
    datos = cuerpo(mensaje="<b>Hola</b>, quisiera saber el horario.\nGracias.")
    with django_capture_on_commit_callbacks(execute=True):
        r = enviar(datos)
    assert r.status_code == 201
    assert len(mailoutbox) == 1
    correo = mailoutbox[0]
    assert correo.to == ["contacto@entidad.gov.co"]
    assert correo.reply_to == ["ana.perez@correo.com"]
    assert correo.from_email == settings.DEFAULT_FROM_EMAIL
    assert correo.cc == [] and correo.bcc == []
    assert correo.subject == "[Contacto · Portal web institucional] Horario de atención"
    assert r.json()["data"]["referencia"] in correo.body
    assert "<b>Hola</b>, quisiera saber el horario.\nGracias." in correo.body
    assert "Ana María Pérez" in correo.body
    assert MensajeContacto.objects.get().correo_enviado_en is not None


def test_nothing_is_sent_until_the_transaction_commits(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert enviar(cuerpo()).status_code == 201
    assert mailoutbox == []
    assert len(callbacks) == 1
    callbacks[0]()
    assert len(mailoutbox) == 1


def test_a_site_without_destination_keeps_the_message_and_sends_nothing(
    enviar, mailoutbox, django_capture_on_commit_callbacks
):
    SitioContactoFactory(codigo="transparencia", correo_destino="")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        r = enviar(cuerpo(sitio="transparencia"))
    assert r.status_code == 201
    assert callbacks == []
    assert mailoutbox == []
    assert MensajeContacto.objects.get().correo_enviado_en is None


def test_a_mail_failure_is_logged_and_the_message_is_kept(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def falla(self, fail_silently=False):
        raise smtplib.SMTPServerDisconnected("servidor caído")

    monkeypatch.setattr(EmailMessage, "send", falla)
    with django_capture_on_commit_callbacks(execute=True):
        r = enviar(cuerpo())
    assert r.status_code == 201
    guardado = MensajeContacto.objects.get()
    assert guardado.referencia == r.json()["data"]["referencia"]
    assert guardado.correo_enviado_en is None
    assert f"no se pudo reenviar por correo el mensaje {guardado.referencia}" in caplog.text
    assert mailoutbox == []


def test_a_header_injection_attempt_in_the_subject_stays_one_line(
    enviar, portal, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        enviar(cuerpo(asunto="Consulta\r\nBcc: victima@ejemplo.com"))
    correo = mailoutbox[0]
    assert correo.bcc == []
    assert "\n" not in correo.subject and "\r" not in correo.subject
    assert correo.subject.endswith("Consulta Bcc: victima@ejemplo.com")
    assert "victima@ejemplo.com" not in correo.message()["To"]
