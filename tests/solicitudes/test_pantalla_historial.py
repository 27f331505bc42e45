"""The request page shows its history (events, tasks, comments) in local time, and the home
leads to every task of the person's inbox, page by page."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.models import Comentario, Evento, Tarea
from tests.factories import dar_permisos

pytestmark = pytest.mark.django_db

UTC_2346 = datetime(2026, 11, 20, 4, 46, tzinfo=UTC)  # 19/11/2026 23:46 in Bogotá (UTC-5)


def _plano(r) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.content.decode())).split())


def test_events_tasks_and_comments_are_shown_in_local_time(client, flujo, settings):
    assert settings.TIME_ZONE == "America/Bogota"
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    services.asignar(tarea=Tarea.objects.get(solicitud=s), usuario=r1, actor=r1)
    services.comentar(solicitud=s, autor=flujo.solicitante, texto="¿Va bien?")
    s = services.avanzar(solicitud=s, actor=r1)
    Evento.objects.filter(solicitud=s).update(creado_en=UTC_2346)
    Comentario.objects.filter(solicitud=s).update(creado_en=UTC_2346)
    Tarea.objects.filter(solicitud=s, completada_en__isnull=False).update(
        recibida_en=UTC_2346, completada_en=UTC_2346 + timedelta(hours=1)
    )
    client.force_login(flujo.solicitante)
    texto = _plano(client.get(s.enlace))
    assert "Fechas y horas en la hora local (America/Bogota)." in texto
    assert "19/11/2026 23:46 · Responsable1" in texto  # the event of the advance
    assert "19/11/2026 23:46 · " in texto.split("Comentarios", 1)[1]
    assert "04:46" not in texto
    tareas = texto.split("Tareas", 1)[1].split("Comentarios", 1)[0]
    assert "Recibida 19/11/2026 23:46" in tareas
    assert "Etapa 1 de Certificado laboral · Rol etapa 1 · asignada a Responsable1" in tareas
    assert "Completada 20/11/2026 00:46 por Responsable1" in tareas
    assert "Etapa 2 de Certificado laboral · Rol etapa 2" in tareas and "Pendiente" in tareas


def test_the_home_links_to_every_task_and_the_list_pages_through_them(client, flujo):
    revisor = flujo.responsables[0]
    dar_permisos(revisor, "solicitudes.bandeja.ver")
    ahora = timezone.now()
    solicitudes = [flujo.radicar(resumen=f"Certificado número {i:02d}") for i in range(33)]
    for i, s in enumerate(solicitudes):  # due in filing order: number 00 first
        Tarea.objects.filter(solicitud=s).update(vence_en=ahora + timedelta(hours=100 + i))
    client.force_login(revisor)
    inicio = _plano(client.get("/"))
    assert "Tiene 33 tareas pendientes" in inicio
    assert "Se muestran las 20 más urgentes de 33. Ver todas sus tareas" in inicio
    assert 'href="/solicitudes/tareas">Ver todas sus tareas</a>' in client.get("/").content.decode()
    primera = client.get("/solicitudes/tareas")
    assert primera.status_code == 200
    texto = _plano(primera)
    assert "Tareas 1 a 20 de 33." in texto and "Página 1 de 2" in texto
    assert "Certificado número 00" in texto and "Certificado número 19" in texto
    assert "Certificado número 20" not in texto
    segunda = _plano(client.get("/solicitudes/tareas?pagina=2"))
    assert "Tareas 21 a 33 de 33." in segunda
    assert "Certificado número 20" in segunda and "Certificado número 32" in segunda
    assert "Certificado número 19" not in segunda
    assert segunda.index("Certificado número 20") < segunda.index("Certificado número 32")


def test_the_task_list_needs_the_inbox_permission(client, flujo):
    client.force_login(flujo.solicitante)
    assert client.get("/solicitudes/tareas").status_code == 403
    client.logout()
    r = client.get("/solicitudes/tareas")
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/")
