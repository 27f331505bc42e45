"""A contact message's admin page: read-only (no "Guardar"), opening it marks it read, and one
button (with its confirmation) marks it attended."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.notificaciones.models import MensajeContacto
from tests.factories import UserFactory
from tests.notificaciones.factories import MensajeContactoFactory

pytestmark = pytest.mark.django_db


def _ficha(mensaje: MensajeContacto) -> str:
    return reverse("admin:notificaciones_mensajecontacto_change", args=[mensaje.pk])


@pytest.fixture
def gestor():
    return UserFactory(
        username="gestor_f",
        is_staff=True,
        permisos=["notificaciones.view_mensajecontacto", "notificaciones.change_mensajecontacto"],
    )


@pytest.fixture
def lector():
    return UserFactory(
        username="lector_f", is_staff=True, permisos=["notificaciones.view_mensajecontacto"]
    )


def test_opening_a_message_marks_it_read_and_the_page_has_no_save_buttons(client, gestor):
    mensaje = MensajeContactoFactory()
    otro = MensajeContactoFactory()
    client.force_login(gestor)
    html = client.get(_ficha(mensaje)).content.decode()
    assert 'name="_save"' not in html and 'name="_continue"' not in html
    assert "Guardar" not in html
    assert MensajeContacto.objects.get(pk=mensaje.pk).leido is True
    assert MensajeContacto.objects.get(pk=otro.pk).leido is False


def test_opening_an_unread_message_reads_its_row_once_and_writes_it_once(client, gestor):
    mensaje = MensajeContactoFactory()
    client.force_login(gestor)
    tabla = MensajeContacto._meta.db_table
    with CaptureQueriesContext(connection) as capturadas:
        html = client.get(_ficha(mensaje)).content.decode()
    sentencias = [q["sql"] for q in capturadas.captured_queries if f'"{tabla}"' in q["sql"]]
    lecturas = [s for s in sentencias if s.startswith("SELECT")]
    escrituras = [s for s in sentencias if s.startswith("UPDATE")]
    assert (len(lecturas), len(escrituras)) == (1, 1)
    # The page shows the state it left, not the one it found.
    leido = '<div class="readonly"><img src="/static/admin/img/icon-yes.svg" alt="True"></div>'
    assert leido in html
    assert MensajeContacto.objects.get(pk=mensaje.pk).leido is True


def test_opening_a_message_already_read_writes_nothing(client, gestor):
    mensaje = MensajeContactoFactory(leido=True)
    client.force_login(gestor)
    tabla = MensajeContacto._meta.db_table
    with CaptureQueriesContext(connection) as capturadas:
        assert client.get(_ficha(mensaje)).status_code == 200
    sentencias = [q["sql"] for q in capturadas.captured_queries if f'"{tabla}"' in q["sql"]]
    assert [s.split()[0] for s in sentencias] == ["SELECT"]


def test_someone_who_may_only_view_reads_without_changing_its_state(client, lector):
    mensaje = MensajeContactoFactory()
    client.force_login(lector)
    html = client.get(_ficha(mensaje)).content.decode()
    assert "/atender/" not in html
    assert MensajeContacto.objects.get(pk=mensaje.pk).leido is False
    ruta = reverse("admin:notificaciones_mensajecontacto_atender", args=[mensaje.pk])
    assert client.post(ruta).status_code == 403
    assert MensajeContacto.objects.get(pk=mensaje.pk).atendido is False


def test_the_attend_button_asks_then_records_who_attended(client, gestor):
    mensaje = MensajeContactoFactory()
    client.force_login(gestor)
    ruta = reverse("admin:notificaciones_mensajecontacto_atender", args=[mensaje.pk])
    assert f'href="{ruta}" class="accion-objeto"' in client.get(_ficha(mensaje)).content.decode()
    confirmacion = client.get(ruta).content.decode()
    assert "¿Marcar este mensaje como atendido?" in confirmacion
    assert MensajeContacto.objects.get(pk=mensaje.pk).atendido is False
    r = client.post(ruta)
    assert r.status_code == 302 and r["Location"] == _ficha(mensaje)
    mensaje.refresh_from_db()
    assert mensaje.atendido and mensaje.atendido_por == gestor and mensaje.leido
    assert ruta not in client.get(_ficha(mensaje)).content.decode()


def test_the_list_keeps_seven_columns_with_the_state_ones(client, gestor):
    MensajeContactoFactory(asunto="Solicitud de certificado laboral con un asunto muy largo " * 2)
    client.force_login(gestor)
    r = client.get(reverse("admin:notificaciones_mensajecontacto_changelist"))
    columnas = [c.strip() for c in r.context["cl"].list_display]
    assert columnas == [
        "action_checkbox",
        "referencia",
        "recibido",
        "nombre_corto",
        "asunto_corto",
        "leido",
        "atendido",
        "reenviado",
    ]
    assert "…" in r.content.decode()
