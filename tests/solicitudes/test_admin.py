"""Admin screens an administrator uses: types with stages, requests, tasks, counters."""

from __future__ import annotations

import datetime
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.models import Solicitud, Tarea
from tests.admin_listas import Columna, columna
from tests.factories import AreaFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def solicitud(flujo):
    s = flujo.radicar(
        resumen="Petición de certificación de pagos",
        campos=[
            {"nombre": "objeto", "valor": "Certificación de pagos 2025"},
            {"nombre": "numero_documento", "valor": "1032456789"},
        ],
    )
    services.comentar(solicitud=s, autor=flujo.solicitante, texto="Quedo atenta.")
    return s


def test_request_list_filters_and_searches_without_accents(admin_client, solicitud, flujo):
    flujo.radicar(resumen="Otra cosa distinta")
    url = reverse("admin:solicitudes_solicitud_changelist")
    respuesta = admin_client.get(url, {"q": "peticion"})
    assert respuesta.status_code == 200
    contenido = respuesta.content.decode()
    assert solicitud.numero_radicado in contenido
    assert list(respuesta.context["cl"].result_list) == [solicitud]
    por_numero = admin_client.get(url, {"q": solicitud.numero_radicado.lower()})
    assert list(por_numero.context["cl"].result_list) == [solicitud]
    filtrada = admin_client.get(url, {"estado__exact": "rechazado"})
    assert list(filtrada.context["cl"].result_list) == []


def test_the_area_column_shows_the_acronym_and_sorts_by_it(admin_client, flujo):
    for sigla in ("OTI", "OAP"):
        Solicitud.objects.filter(pk=flujo.radicar().pk).update(area=AreaFactory(sigla=sigla))
    url = reverse("admin:solicitudes_solicitud_changelist")
    assert columna(admin_client, url, "area_sigla") == Columna(
        "Área", ["OAP", "OTI"], ["OTI", "OAP"]
    )


def test_request_page_masks_sensitive_values_and_shows_participants(admin_client, solicitud):
    url = reverse("admin:solicitudes_solicitud_change", args=[solicitud.pk])
    respuesta = admin_client.get(url)
    assert respuesta.status_code == 200
    contenido = respuesta.content.decode()
    assert "1032456789" not in contenido
    assert "dato sensible" in contenido
    assert "Certificación de pagos 2025" in contenido
    assert solicitud.enlace in contenido
    assert solicitud.solicitante.nombre_visible in contenido
    assert "Quedo atenta." in contenido


def test_requests_cannot_be_added_or_deleted_from_the_admin(admin_client, solicitud):
    assert admin_client.get(reverse("admin:solicitudes_solicitud_add")).status_code == 403
    borrar = reverse("admin:solicitudes_solicitud_delete", args=[solicitud.pk])
    assert admin_client.get(borrar).status_code == 403


def test_type_page_edits_its_stages_inline(admin_client, flujo):
    url = reverse("admin:solicitudes_tiposolicitud_change", args=[flujo.tipo.pk])
    respuesta = admin_client.get(url)
    assert respuesta.status_code == 200
    assert "etapas-TOTAL_FORMS" in respuesta.content.decode()


def test_renaming_a_type_in_the_admin_keeps_its_requests_searchable(admin_client, solicitud, flujo):
    tipo = flujo.tipo
    datos = {
        "codigo": tipo.codigo,
        "nombre": "Constancia laboral",
        "descripcion": "",
        "area": tipo.area_id,
        "prefijo": tipo.prefijo,
        "activo": "on",
        "etapas-TOTAL_FORMS": "3",
        "etapas-INITIAL_FORMS": "3",
        "etapas-MIN_NUM_FORMS": "0",
        "etapas-MAX_NUM_FORMS": "1000",
    }
    for i, etapa in enumerate(tipo.etapas.order_by("orden")):
        datos.update(
            {
                f"etapas-{i}-id": etapa.pk,
                f"etapas-{i}-tipo": tipo.pk,
                f"etapas-{i}-orden": etapa.orden,
                f"etapas-{i}-nombre": etapa.nombre,
                f"etapas-{i}-rol": etapa.rol_id,
                f"etapas-{i}-plazo_horas": etapa.plazo_horas,
            }
        )
    url = reverse("admin:solicitudes_tiposolicitud_change", args=[tipo.pk])
    respuesta = admin_client.post(url, datos)
    assert respuesta.status_code == 302
    assert list(Solicitud.objects.buscar("constancia")) == [solicitud]


def test_task_list_filters_overdue_and_by_role(admin_client, solicitud, flujo):
    tarea = Tarea.objects.get(solicitud=solicitud)
    Tarea.objects.filter(pk=tarea.pk).update(vence_en=timezone.now() - timedelta(hours=1))
    otra = flujo.radicar()
    url = reverse("admin:solicitudes_tarea_changelist")
    vencidas = admin_client.get(url, {"vencimiento": "vencida"})
    assert vencidas.status_code == 200
    assert list(vencidas.context["cl"].result_list) == [tarea]
    al_dia = admin_client.get(url, {"vencimiento": "al_dia"})
    assert list(al_dia.context["cl"].result_list) == [Tarea.objects.get(solicitud=otra)]
    por_rol = admin_client.get(url, {"rol__id__exact": flujo.roles[1].pk})
    assert list(por_rol.context["cl"].result_list) == []


def test_counter_list_is_read_only(admin_client, solicitud):
    respuesta = admin_client.get(reverse("admin:solicitudes_consecutivo_changelist"))
    assert respuesta.status_code == 200
    assert admin_client.get(reverse("admin:solicitudes_consecutivo_add")).status_code == 403


def test_history_and_task_captions_are_in_local_time_without_an_id_prefix(admin_client, solicitud):
    from apps.solicitudes.models import Evento

    evento = Evento.objects.filter(solicitud=solicitud).first()
    local = timezone.localtime(evento.creado_en).strftime("%d/%m/%Y %H:%M")
    utc = evento.creado_en.astimezone(datetime.UTC).strftime("%d/%m/%Y %H:%M")
    assert local != utc  # Bogotá is five hours behind UTC
    url = reverse("admin:solicitudes_solicitud_change", args=[solicitud.pk])
    contenido = admin_client.get(url).content.decode()
    assert f"{evento.get_accion_display()} · {local}" in contenido
    assert f"· {utc}" not in contenido
    tarea = Tarea.objects.filter(solicitud=solicitud).first()
    assert str(tarea).startswith(str(tarea.etapa))
    assert re.search(rf"[>\s]{solicitud.pk} · ", contenido) is None
