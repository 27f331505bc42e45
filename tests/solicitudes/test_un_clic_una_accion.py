"""One click, one action (issue 35, item 1): a write drawn from a form carries the version of the
request it was drawn for (a comment, its single-use nonce); the service refuses a stale one with
`SolicitudCambio` (409 on the page) and writes nothing. Callers without a form (the tools, whose
confirmation token is their marker; the demo) pass none and keep working."""

from __future__ import annotations

import pytest

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import SolicitudCambio, TransicionInvalida
from apps.solicitudes.models import Accion, Comentario, Evento, Solicitud, Tarea
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db

MOTIVO = "Falta el soporte de la cuenta"


def _foto(s: Solicitud) -> tuple:
    s.refresh_from_db()
    return (
        s.estado,
        s.etapa_actual_id,
        s.version,
        list(Tarea.objects.filter(solicitud=s).values_list("pk", "asignada_a_id", "completada_en")),
        Evento.objects.filter(solicitud=s).count(),
        Comentario.objects.filter(solicitud=s).count(),
    )


def test_every_change_of_the_workflow_raises_the_version(flujo):
    s = flujo.radicar()
    primera = s.version
    r1 = flujo.responsables[0]
    services.asignar(tarea=selectors.tarea_actual(s), usuario=r1, actor=r1)
    s.refresh_from_db()
    tras_asignar = s.version
    s = services.avanzar(solicitud=s, actor=r1)
    assert primera < tras_asignar < s.version


def test_the_same_advance_form_sent_twice_moves_the_request_one_stage(flujo):
    s = flujo.radicar()
    dibujada = s.version
    services.avanzar(solicitud=s, actor=flujo.responsables[0], version=dibujada)
    antes = _foto(s)
    with pytest.raises(SolicitudCambio) as error:
        services.avanzar(solicitud=s, actor=flujo.responsables[0], version=dibujada)
    assert error.value.detalle.startswith("La solicitud cambió mientras usted la veía")
    assert error.value.codigo == "TRANSICION_INVALIDA"  # the interface's code; 409 on the page
    assert _foto(s) == antes
    assert s.etapa_actual.orden == 2


def test_a_stale_form_is_refused_before_the_state_would_allow_the_action_again(flujo):
    # Marked for attention and resumed by someone else: the state allows advancing again, but the
    # form was drawn for the request as it was before.
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    dibujada = s.version
    services.marcar_atencion(solicitud=s, actor=r1, motivo=MOTIVO)
    services.reanudar(solicitud=s, actor=r1)
    antes = _foto(s)
    with pytest.raises(SolicitudCambio):
        services.avanzar(solicitud=s, actor=r1, version=dibujada)
    assert _foto(s) == antes


@pytest.mark.parametrize(
    "llamada",
    [
        lambda s, a, v: services.aprobar(solicitud=s, actor=a, version=v),
        lambda s, a, v: services.devolver(solicitud=s, actor=a, motivo=MOTIVO, version=v),
        lambda s, a, v: services.marcar_atencion(solicitud=s, actor=a, motivo=MOTIVO, version=v),
        lambda s, a, v: services.rechazar(solicitud=s, actor=a, motivo=MOTIVO, version=v),
        lambda s, a, v: services.anular(solicitud=s, actor=a, motivo=MOTIVO, version=v),
        lambda s, a, v: services.asignar(
            tarea=selectors.tarea_actual(s), usuario=a, actor=a, version=v
        ),
    ],
    ids=["aprobar", "devolver", "marcar_atencion", "rechazar", "anular", "asignar"],
)
def test_every_stage_action_refuses_a_stale_version_and_writes_nothing(flujo, llamada):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    services.asignar(tarea=selectors.tarea_actual(s), usuario=r1, actor=r1)
    antes = _foto(s)
    with pytest.raises(SolicitudCambio):
        llamada(s, r1, antes[2] - 1)
    assert _foto(s) == antes


def test_resuming_and_correcting_refuse_a_stale_version(flujo):
    r1 = flujo.responsables[0]
    s = flujo.en_estado("requiere_atencion")
    with pytest.raises(SolicitudCambio):
        services.reanudar(solicitud=s, actor=r1, version=s.version - 1)
    s = flujo.en_estado("devuelto")
    antes = _foto(s)
    with pytest.raises(SolicitudCambio):
        services.corregir(solicitud=s, actor=flujo.solicitante, version=s.version - 1)
    assert _foto(s) == antes


def test_the_current_version_acts_and_no_version_keeps_the_callers_without_a_form_working(flujo):
    s = flujo.radicar()
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0], version=s.version)
    assert s.etapa_actual.orden == 2
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    assert s.etapa_actual.orden == 3


def test_taking_a_task_twice_with_the_same_form_gives_one_assigned_event(flujo):
    s = flujo.radicar()
    colega = persona(flujo.roles[0])
    dibujada = s.version
    tarea = selectors.tarea_actual(s)
    services.asignar(tarea=tarea, usuario=colega, actor=colega, version=dibujada)
    with pytest.raises(SolicitudCambio):
        services.asignar(tarea=tarea, usuario=colega, actor=colega, version=dibujada)
    assert Evento.objects.filter(solicitud=s, accion=Accion.ASIGNADA).count() == 1


def test_the_same_comment_form_sent_twice_stores_one_comment(flujo):
    s = flujo.radicar()
    autor = flujo.responsables[0]
    services.comentar(solicitud=s, autor=autor, texto="Reviso hoy.", nonce="a" * 22)
    with pytest.raises(SolicitudCambio) as error:
        services.comentar(solicitud=s, autor=autor, texto="Reviso hoy.", nonce="a" * 22)
    assert "ya quedó publicado" in error.value.detalle
    assert Comentario.objects.filter(solicitud=s).count() == 1
    # Another form (another nonce), or a caller without one (the tools), posts again.
    services.comentar(solicitud=s, autor=autor, texto="Reviso hoy.", nonce="b" * 22)
    services.comentar(solicitud=s, autor=autor, texto="Reviso hoy.")
    assert Comentario.objects.filter(solicitud=s).count() == 3


def test_a_comment_does_not_make_the_stage_forms_stale(flujo):
    s = flujo.radicar()
    dibujada = s.version
    services.comentar(solicitud=s, autor=flujo.solicitante, texto="¿Cómo va mi solicitud?")
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0], version=dibujada)
    assert s.etapa_actual.orden == 2


def test_the_stale_form_error_is_a_transition_error(flujo):
    assert issubclass(SolicitudCambio, TransicionInvalida)
