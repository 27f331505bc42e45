"""Demo data of the contact form: sites and messages, safe to run twice."""

from __future__ import annotations

import pytest

from apps.notificaciones import demo
from apps.notificaciones.models import MensajeContacto, SitioContacto
from hub.operacion.demo import ContextoDemo
from tests.factories import UserFactory
from tests.notificaciones.ayudas import cuerpo

pytestmark = pytest.mark.django_db


def _cargar() -> ContextoDemo:
    ctx = ContextoDemo()
    ctx.objetos["usuarios"] = {"admin": UserFactory(username="admin", is_superuser=True)}
    demo.cargar(ctx)
    return ctx


def test_the_demo_creates_sites_and_messages_and_publishes_the_site_codes():
    ctx = _cargar()
    assert ctx.salida["contacto"] == {"sitios": ["portal", "sede", "transparencia"]}
    assert SitioContacto.objects.get(codigo="portal").nombre == "Portal web institucional"
    assert SitioContacto.objects.get(codigo="sede").nombre == "Sede electrónica"
    assert MensajeContacto.objects.count() == 5
    assert MensajeContacto.objects.filter(leido=False).count() == 2
    atendidos = MensajeContacto.objects.filter(atendido=True)
    assert atendidos.count() == 2
    assert {m.atendido_por.username for m in atendidos} == {"admin"}
    assert any("/notificaciones/api/public/v1/contacto" in linea for linea in ctx.resumen)


def test_running_the_demo_twice_changes_nothing():
    _cargar()
    antes = list(MensajeContacto.objects.values_list("referencia", "recibido_en", "leido"))
    ctx = _cargar()
    assert SitioContacto.objects.count() == 3
    assert list(MensajeContacto.objects.values_list("referencia", "recibido_en", "leido")) == antes
    assert ctx.salida["contacto"]["sitios"] == ["portal", "sede", "transparencia"]


def test_the_demo_sites_accept_messages(enviar):
    ctx = _cargar()
    for i, codigo in enumerate(ctx.salida["contacto"]["sitios"]):
        assert enviar(cuerpo(sitio=codigo), ip=f"198.51.100.{i + 1}").status_code == 201
