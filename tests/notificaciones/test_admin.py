"""Admin of contact messages: read-only content, filters, the two actions, who may use them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.notificaciones.models import MensajeContacto
from tests.factories import UserFactory
from tests.notificaciones.factories import MensajeContactoFactory, SitioContactoFactory

pytestmark = pytest.mark.django_db

LISTA = reverse("admin:notificaciones_mensajecontacto_changelist")


def _ficha(mensaje: MensajeContacto) -> str:
    return reverse("admin:notificaciones_mensajecontacto_change", args=[mensaje.pk])


@pytest.fixture
def superusuario():
    return UserFactory(username="jefe", is_staff=True, is_superuser=True)


@pytest.fixture
def gestor():
    """Staff member allowed to view and change messages (the colleague with permission)."""
    return UserFactory(
        username="gestor",
        is_staff=True,
        permisos=["notificaciones.view_mensajecontacto", "notificaciones.change_mensajecontacto"],
    )


@pytest.fixture
def lector():
    """Staff member who may only view messages."""
    return UserFactory(
        username="lector", is_staff=True, permisos=["notificaciones.view_mensajecontacto"]
    )


def _accion(client, accion: str, mensajes: list[MensajeContacto]):
    return client.post(
        LISTA,
        {"action": accion, "_selected_action": [m.pk for m in mensajes], "index": 0},
    )


def test_superuser_marks_selected_messages_as_read(client, superusuario):
    a, b, otro = MensajeContactoFactory.create_batch(3)
    client.force_login(superusuario)
    r = _accion(client, "marcar_leidos", [a, b])
    assert r.status_code == 302
    assert list(MensajeContacto.objects.filter(leido=True).order_by("pk")) == [a, b]
    otro.refresh_from_db()
    assert otro.leido is False
    mensajes = [str(m) for m in client.get(r["Location"]).context["messages"]]
    assert mensajes == ["2 mensaje(s) marcado(s) como leído(s)."]


def test_marking_as_attended_records_who_and_when_and_marks_read(client, superusuario):
    mensaje = MensajeContactoFactory()
    client.force_login(superusuario)
    antes = timezone.now()
    assert _accion(client, "marcar_atendidos", [mensaje]).status_code == 302
    mensaje.refresh_from_db()
    assert mensaje.atendido is True
    assert mensaje.leido is True
    assert mensaje.atendido_por == superusuario
    assert mensaje.atendido_en >= antes


def test_an_already_attended_message_keeps_who_attended_it(client, superusuario, gestor):
    primero = UserFactory(username="primero", is_staff=True)
    cuando = timezone.now() - timezone.timedelta(days=2)
    mensaje = MensajeContactoFactory(
        atendido=True, atendido_por=primero, atendido_en=cuando, leido=True
    )
    client.force_login(gestor)
    _accion(client, "marcar_atendidos", [mensaje])
    mensaje.refresh_from_db()
    assert (mensaje.atendido_por, mensaje.atendido_en) == (primero, cuando)


def test_a_staff_member_with_change_permission_can_run_both_actions(client, gestor):
    mensaje = MensajeContactoFactory()
    client.force_login(gestor)
    _accion(client, "marcar_leidos", [mensaje])
    _accion(client, "marcar_atendidos", [mensaje])
    mensaje.refresh_from_db()
    assert (mensaje.leido, mensaje.atendido, mensaje.atendido_por) == (True, True, gestor)


def test_a_staff_member_with_view_permission_only_sees_but_cannot_mark(client, lector):
    mensaje = MensajeContactoFactory()
    client.force_login(lector)
    r = client.get(LISTA)
    assert r.status_code == 200
    assert mensaje.referencia in r.content.decode()
    assert "marcar_leidos" not in r.content.decode()
    _accion(client, "marcar_leidos", [mensaje])
    _accion(client, "marcar_atendidos", [mensaje])
    mensaje.refresh_from_db()
    assert (mensaje.leido, mensaje.atendido) == (False, False)


def test_someone_outside_the_staff_is_sent_to_the_login_and_changes_nothing(client):
    mensaje = MensajeContactoFactory()
    client.force_login(UserFactory(username="ciudadano"))
    assert client.get(LISTA).status_code == 302
    assert client.get(_ficha(mensaje)).status_code == 302
    _accion(client, "marcar_leidos", [mensaje])
    mensaje.refresh_from_db()
    assert mensaje.leido is False


def test_html_written_by_the_sender_is_shown_escaped(client, superusuario):
    mensaje = MensajeContactoFactory(
        nombre="<img src=x onerror=alert(1)>",
        asunto="<script>alert('asunto')</script>",
        mensaje="<script>alert('mensaje')</script>\n<b>negrita</b>",
    )
    client.force_login(superusuario)
    for ruta in (LISTA, _ficha(mensaje)):
        html = client.get(ruta).content.decode()
        assert "<script>alert(" not in html
        assert "<img src=x" not in html
        assert "&lt;script&gt;alert(" in html
    ficha = client.get(_ficha(mensaje)).content.decode()
    assert "&lt;b&gt;negrita&lt;/b&gt;" in ficha


def test_the_content_cannot_be_edited_nor_added_in_the_admin(client, superusuario):
    mensaje = MensajeContactoFactory(asunto="Asunto original")
    client.force_login(superusuario)
    client.post(
        _ficha(mensaje),
        {"asunto": "Cambiado", "mensaje": "Cambiado por alguien", "leido": "on"},
    )
    mensaje.refresh_from_db()
    assert (mensaje.asunto, mensaje.leido) == ("Asunto original", False)
    assert client.get(reverse("admin:notificaciones_mensajecontacto_add")).status_code == 403


def test_the_list_filters_by_site_and_state_and_searches(client, superusuario):
    portal = SitioContactoFactory(codigo="portal")
    sede = SitioContactoFactory(codigo="sede")
    del_portal = MensajeContactoFactory(sitio=portal, asunto="Certificado laboral")
    de_sede = MensajeContactoFactory(sitio=sede, asunto="Horario", atendido=True)
    client.force_login(superusuario)

    def referencias(**filtros) -> set[str]:
        r = client.get(LISTA, filtros)
        assert r.status_code == 200
        return {m.referencia for m in r.context["cl"].result_list}

    assert referencias(sitio__id__exact=portal.pk) == {del_portal.referencia}
    assert referencias(atendido__exact=1) == {de_sede.referencia}
    assert referencias(q="certificado") == {del_portal.referencia}
    hoy = timezone.localdate()
    assert referencias(recibido_en__year=hoy.year) == {del_portal.referencia, de_sede.referencia}


def test_the_list_costs_the_same_queries_with_more_messages(client, superusuario):
    client.force_login(superusuario)
    atiende = UserFactory(username="atiende", is_staff=True)

    def consultas() -> int:
        with CaptureQueriesContext(connection) as capturadas:
            assert client.get(LISTA).status_code == 200
        return len(capturadas)

    MensajeContactoFactory.create_batch(2, atendido=True, atendido_por=atiende)
    consultas()  # the first page of the admin also reads the brand once into the cache
    pocas = consultas()
    for _ in range(3):
        MensajeContactoFactory.create_batch(4, sitio=SitioContactoFactory())
    MensajeContactoFactory.create_batch(3, atendido=True, atendido_por=superusuario)
    assert consultas() == pocas


def test_the_sites_admin_lists_sites_with_their_message_count(client, superusuario):
    sitio = SitioContactoFactory(codigo="portal", nombre="Portal web institucional")
    MensajeContactoFactory.create_batch(2, sitio=sitio)
    client.force_login(superusuario)
    r = client.get(reverse("admin:notificaciones_sitiocontacto_changelist"))
    assert r.status_code == 200
    fila = r.context["cl"].result_list[0]
    assert (fila.codigo, fila._total) == ("portal", 2)
