"""The top menu: «Mis tareas (N)» for whoever has an inbox, counted in one query, and the
«Menú» button that folds the menu on a phone (the browser half: test_menu_navegador)."""

from __future__ import annotations

import pytest

from apps.solicitudes import selectors
from apps.solicitudes.models import Tarea
from tests.factories import dar_permisos

pytestmark = pytest.mark.django_db

BANDEJA = "solicitudes.bandeja.ver"


def test_the_menu_counts_the_inbox_on_every_page(client, flujo):
    for _ in range(3):
        flujo.radicar()
    revisor = flujo.responsables[0]
    dar_permisos(revisor, BANDEJA)
    client.force_login(revisor)
    for ruta in ("/", "/cuentas/perfil/", "/solicitudes/"):
        html = client.get(ruta).content.decode()
        assert '<a href="/solicitudes/tareas">Mis tareas (3)</a>' in html, ruta


def test_a_completed_task_leaves_the_count_and_an_assigned_one_stays(client, flujo):
    primera, segunda = flujo.radicar(), flujo.radicar()
    revisor = flujo.responsables[0]
    dar_permisos(revisor, BANDEJA)
    Tarea.objects.filter(solicitud=primera).update(asignada_a=revisor)
    Tarea.objects.filter(solicitud=segunda).update(completada_en=segunda.fecha_radicacion)
    client.force_login(revisor)
    assert "Mis tareas (1)</a>" in client.get("/cuentas/perfil/").content.decode()


def test_without_an_inbox_the_menu_has_no_mis_tareas(client, flujo):
    flujo.radicar()
    client.force_login(flujo.responsables[0])  # in the role, without the inbox permission
    html = client.get("/").content.decode()
    assert "Mis tareas (" not in html
    assert '<a href="/solicitudes/">Solicitudes</a>' in html


def test_the_count_is_one_query(flujo, django_assert_num_queries):
    for _ in range(4):
        flujo.radicar()
    revisor = flujo.responsables[0]
    Tarea.objects.filter(pk=Tarea.objects.first().pk).update(asignada_a=revisor)
    selectors.total_bandeja(revisor)  # the person's roles are read once per user object
    with django_assert_num_queries(1):
        assert selectors.total_bandeja(revisor) == 4


def test_the_menu_folds_behind_a_button_the_script_enables(client, flujo):
    client.force_login(flujo.solicitante)
    html = client.get("/").content.decode()
    assert (
        '<button type="button" class="menu-boton" id="menu-boton" aria-expanded="false" '
        'aria-controls="menu" hidden>Menú</button>'
    ) in html
    assert '<nav class="barra-nav" id="menu" aria-label="Cuenta">' in html
    assert 'src="/static/hub/menu.js" defer' in html
