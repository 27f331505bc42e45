"""Home of a signed-in person: Mis tareas (the mis_tareas inbox, overdue said in words) and Mis
solicitudes (those they filed), reachable from the header of every page."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.solicitudes.models import Tarea
from tests.factories import dar_permisos
from tests.solicitudes.factories import radicadora

pytestmark = pytest.mark.django_db


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def _plano(texto: str) -> str:
    """What a person reads: no tags, one space between words."""
    return " ".join(re.sub(r"<[^>]+>", " ", texto).split())


def test_without_a_session_home_asks_to_sign_in(client):
    r = client.get("/")
    assert r.status_code == 302
    assert r["Location"] == "/cuentas/login/?next=/"


def test_mis_solicitudes_lists_what_the_person_filed_and_nothing_else(client, flujo):
    propia = flujo.radicar(resumen="Certificado para el banco")
    otra = flujo.radicar(solicitante=radicadora(), resumen="Solicitud de otra persona")
    client.force_login(flujo.solicitante)
    r = client.get("/")
    assert r.status_code == 200
    texto = _texto(r)
    assert "Mis solicitudes" in texto
    assert f'href="{propia.enlace}"' in texto and "Certificado para el banco" in texto
    assert otra.enlace not in texto
    assert "Mis tareas" not in texto  # no inbox permission: no inbox


def test_mis_tareas_marks_overdue_tasks_in_words(client, flujo):
    vencida = flujo.radicar(resumen="Tarea que ya venció")
    pronto = flujo.radicar(resumen="Tarea que vence mañana")
    a_tiempo = flujo.radicar(resumen="Tarea con tiempo")
    ahora = timezone.now()
    Tarea.objects.filter(solicitud=vencida).update(vence_en=ahora - timedelta(hours=5))
    Tarea.objects.filter(solicitud=pronto).update(vence_en=ahora + timedelta(hours=20))
    Tarea.objects.filter(solicitud=a_tiempo).update(vence_en=ahora + timedelta(days=10))
    revisor = flujo.responsables[0]
    dar_permisos(revisor, "solicitudes.bandeja.ver")
    client.force_login(revisor)
    texto = _texto(client.get("/"))
    assert "Tiene 3 tareas pendientes: 1 vencida y 1 por vencer" in _plano(texto)
    filas = {
        s.resumen: texto.split(s.resumen, 1)[1].split("</tr>", 1)[0]
        for s in (vencida, pronto, a_tiempo)
    }
    assert "Vencida" in filas["Tarea que ya venció"]
    assert "Vence pronto" in filas["Tarea que vence mañana"]
    assert "A tiempo" in filas["Tarea con tiempo"]
    # The common inbox of a role, named once (not "Bandeja común del rol Bandeja de …").
    assert "Sin asignar, para el rol «Rol etapa 1»" in filas["Tarea con tiempo"]
    # How overdue, or how far, in words; the moment in the staff pages' one style.
    assert "Vencida hace 5\xa0horas" in filas["Tarea que ya venció"]
    assert "Vence en 10 días" in filas["Tarea con tiempo"]
    vence = timezone.localtime(ahora + timedelta(days=10))
    assert vence.strftime("%d/%m/%Y %H:%M") in filas["Tarea con tiempo"]
    # Most urgent first, each linked to its request.
    assert texto.index("Tarea que ya venció") < texto.index("Tarea que vence mañana")
    assert f'href="{vencida.enlace}"' in texto


def test_home_is_linked_from_the_header_of_every_page(client, flujo):
    s = flujo.radicar()
    client.force_login(flujo.solicitante)
    for ruta in ("/", "/cuentas/perfil/", s.enlace):
        assert '<a href="/">Inicio</a>' in client.get(ruta).content.decode(), ruta


def test_mis_solicitudes_pages_through_many_requests(client, flujo):
    for i in range(23):
        flujo.radicar(resumen=f"Solicitud número {i:02d}")
    client.force_login(flujo.solicitante)
    primera = _texto(client.get("/"))
    assert "23 solicitudes radicadas por usted" in primera
    assert "Página 1 de 2" in primera
    segunda = _texto(client.get("/?pagina=2"))
    assert "Solicitud número 00" in segunda and "Solicitud número 22" not in segunda
