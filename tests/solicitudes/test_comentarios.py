"""The chat: only people who can see a request comment on it; commenting makes a participant."""

from __future__ import annotations

import pytest

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import DatosInvalidos, SolicitudNoEncontrada
from apps.solicitudes.models import Comentario, Evento, Solicitud
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db


def test_the_filer_comments_and_the_request_is_touched(flujo):
    s = flujo.radicar()
    antes = s.fecha_actualizacion
    c = services.comentar(solicitud=s, autor=flujo.solicitante, texto="  ¿Hay novedades?\u200b ")
    assert (c.autor, c.texto, c.solicitud_id) == (flujo.solicitante, "¿Hay novedades?", s.pk)
    s.refresh_from_db()
    assert s.fecha_actualizacion == c.creado_en >= antes
    assert Evento.objects.filter(solicitud=s).count() == 1  # no history event for a comment


def test_the_role_holding_the_task_may_comment(flujo):
    s = flujo.radicar()
    services.comentar(solicitud=s, autor=flujo.responsables[0], texto="Lo reviso hoy.")
    assert Comentario.objects.filter(solicitud=s).count() == 1


def test_an_outsider_gets_no_encontrado_and_nothing_is_written(flujo):
    s = flujo.radicar()
    with pytest.raises(SolicitudNoEncontrada) as error:
        services.comentar(solicitud=s, autor=persona(), texto="Hola")
    assert error.value.codigo == "NO_ENCONTRADO"
    assert Comentario.objects.count() == 0


def test_an_inactive_author_gets_no_encontrado(flujo):
    s = flujo.radicar()
    flujo.solicitante.is_active = False
    flujo.solicitante.save()
    with pytest.raises(SolicitudNoEncontrada):
        services.comentar(solicitud=s, autor=flujo.solicitante, texto="Hola")


@pytest.mark.parametrize("texto", ["", "   ", "\u200b\u200b", "x" * 2001])
def test_empty_or_too_long_text_is_refused(flujo, texto):
    s = flujo.radicar()
    with pytest.raises(DatosInvalidos) as error:
        services.comentar(solicitud=s, autor=flujo.solicitante, texto=texto)
    assert list(error.value.campos) == ["texto"]


def test_participants_are_filer_task_holders_commenters_and_actors(flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    companera = persona(flujo.roles[0])
    auditora = persona(permisos=["solicitudes.ver_todas"])
    tarea = s.tareas.get()
    services.asignar(tarea=tarea, usuario=companera, actor=r1)
    services.comentar(solicitud=s, autor=auditora, texto="Queda en seguimiento.")
    persona()  # someone unrelated
    assert set(selectors.participantes(s)) == {flujo.solicitante, r1, companera, auditora}


def test_latest_comments_and_history_come_oldest_first(flujo):
    s = flujo.radicar()
    for i in range(4):
        services.comentar(solicitud=s, autor=flujo.solicitante, texto=f"Mensaje {i}")
    assert [c.texto for c in selectors.ultimos_comentarios(s, 2)] == ["Mensaje 2", "Mensaje 3"]
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    assert [e.accion for e in selectors.historial(s, 5)] == ["radicada", "avanzada"]
    assert [e.accion for e in selectors.historial(s, 1)] == ["avanzada"]


def test_progress_and_current_task(flujo):
    s = flujo.radicar()
    assert selectors.progreso(s) == {"etapa_orden": 1, "etapas_completadas": 0, "total_etapas": 3}
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    assert selectors.progreso(s)["etapas_completadas"] == 1
    actual = selectors.tarea_actual(s)
    assert (actual.etapa.orden, actual.rol) == (2, flujo.roles[1])
    aprobada = flujo.en_estado("aprobado")
    assert selectors.progreso(aprobada) == {
        "etapa_orden": None,
        "etapas_completadas": 3,
        "total_etapas": 3,
    }
    assert selectors.tarea_actual(aprobada) is None
    assert Solicitud.objects.get(pk=aprobada.pk).nombre_rol_responsable == ""


def test_validating_a_comment_for_the_preview_writes_nothing(flujo):
    s = flujo.radicar()
    texto = services.validar_comentario(solicitud=s, autor=flujo.solicitante, texto=" Hola\u202e ")
    assert texto == "Hola"
    assert Comentario.objects.count() == 0
    with pytest.raises(SolicitudNoEncontrada):
        services.validar_comentario(solicitud=s, autor=persona(), texto="Hola")
