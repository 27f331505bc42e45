"""The workflow: every transition with its tasks and history, and the ones that are refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.solicitudes import services
from apps.solicitudes.errores import AccionNoPermitida, DatosInvalidos, TransicionInvalida
from apps.solicitudes.models import Accion, Comentario, Estado, Evento, Tarea
from tests.busqueda import ESTADOS_SOLICITUD
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db


def _pendientes(solicitud):
    return list(Tarea.objects.pendientes().filter(solicitud=solicitud))


def _ultimo_evento(solicitud) -> Evento:
    return Evento.objects.filter(solicitud=solicitud).order_by("-pk").first()


def test_filing_puts_the_request_in_the_first_stage_with_a_common_inbox_task(flujo):
    s = flujo.radicar(campos={"dirigido_a": "Banco de Bogotá"})
    etapa1 = flujo.tipo.etapas.get(orden=1)
    assert s.estado == Estado.RADICADO
    assert s.etapa_actual == etapa1
    assert s.rol_responsable == flujo.roles[0]
    assert s.fecha_radicacion is not None and s.fecha_cierre is None
    assert s.area_id == flujo.tipo.area_id
    [tarea] = _pendientes(s)
    assert (tarea.etapa, tarea.rol, tarea.asignada_a, tarea.es_correccion) == (
        etapa1,
        flujo.roles[0],
        None,
        False,
    )
    assert tarea.vence_en - tarea.recibida_en == timedelta(hours=48)
    evento = _ultimo_evento(s)
    assert (evento.accion, evento.actor, evento.etapa_destino) == (
        Accion.RADICADA,
        flujo.solicitante,
        etapa1,
    )
    assert s.numero_radicado in evento.descripcion
    assert list(s.campos.values_list("nombre", "valor")) == [("dirigido_a", "Banco de Bogotá")]


def test_advancing_completes_the_task_and_opens_the_next_stage(flujo):
    s = flujo.radicar()
    [anterior] = _pendientes(s)
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    anterior.refresh_from_db()
    assert anterior.completada_en is not None
    assert anterior.completada_por == flujo.responsables[0]
    assert s.estado == Estado.EN_TRAMITE
    assert s.etapa_actual.orden == 2
    assert s.rol_responsable == flujo.roles[1]
    [nueva] = _pendientes(s)
    assert (nueva.etapa.orden, nueva.rol, nueva.requiere_firma) == (2, flujo.roles[1], False)
    evento = _ultimo_evento(s)
    assert evento.accion == Accion.AVANZADA
    assert (evento.etapa_origen.orden, evento.etapa_destino.orden) == (1, 2)
    assert evento.actor == flujo.responsables[0]


def test_a_signature_stage_creates_a_task_that_requires_signature(flujo):
    s = flujo.radicar()
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    [tarea] = _pendientes(s)
    assert tarea.requiere_firma is True
    assert tarea.vence_en - tarea.recibida_en == timedelta(hours=72)


def test_advancing_from_the_last_stage_approves_and_closes(flujo):
    s = flujo.en_estado("aprobado")
    assert s.estado == Estado.APROBADO
    assert s.fecha_cierre is not None
    assert s.etapa_actual is None and s.rol_responsable is None
    assert s.nombre_etapa_actual == "Finalizada"
    assert _pendientes(s) == []
    assert _ultimo_evento(s).accion == Accion.APROBADA
    assert Tarea.objects.filter(solicitud=s).count() == 3


def test_approve_is_refused_before_the_last_stage_and_closes_at_it(flujo):
    flujo.sin_firma()
    s = flujo.radicar()
    with pytest.raises(TransicionInvalida):
        services.aprobar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    s = services.aprobar(solicitud=s, actor=flujo.responsables[2], comentario="Firmado.")
    assert s.estado == Estado.APROBADO
    assert Comentario.objects.get(solicitud=s).texto == "Firmado."


def test_returning_gives_the_filer_a_correction_task(flujo):
    s = flujo.en_estado("devuelto")
    assert s.estado == Estado.DEVUELTO
    assert s.rol_responsable is None
    assert s.nombre_rol_responsable == "Solicitante"
    assert s.etapa_actual.orden == 1  # it comes back to the stage that returned it
    [tarea] = _pendientes(s)
    assert tarea.es_correccion is True
    assert tarea.asignada_a == flujo.solicitante
    assert tarea.rol is None and tarea.rol_flujo == "Solicitante"
    assert tarea.instrucciones == "Falta un soporte"
    assert tarea.vence_en - tarea.recibida_en == timedelta(hours=services.PLAZO_CORRECCION_HORAS)
    assert tarea.es_correccion_de(flujo.solicitante) is True
    evento = _ultimo_evento(s)
    assert evento.accion == Accion.DEVUELTA and "Falta un soporte" in evento.descripcion


def test_the_filer_corrects_and_the_request_goes_back_to_that_stage(flujo):
    s = flujo.en_estado("devuelto")
    s = services.corregir(
        solicitud=s,
        actor=flujo.solicitante,
        resumen="Certificado laboral con salario para trámite bancario",
        campos=[{"nombre": "dirigido_a", "valor": "Banco Popular"}],
        comentario="Adjunté lo pedido.",
    )
    assert s.estado == Estado.EN_TRAMITE
    assert s.rol_responsable == flujo.roles[0]
    [tarea] = _pendientes(s)
    assert (tarea.es_correccion, tarea.etapa.orden, tarea.rol) == (False, 1, flujo.roles[0])
    assert Tarea.objects.correcciones().get(solicitud=s).completada_por == flujo.solicitante
    assert _ultimo_evento(s).accion == Accion.CORREGIDA
    s.refresh_from_db()
    assert "con salario" in s.busqueda
    assert s.campos.get(nombre="dirigido_a").valor == "Banco Popular"
    assert Comentario.objects.get(solicitud=s).texto == "Adjunté lo pedido."


def test_only_the_filer_may_correct(flujo):
    s = flujo.en_estado("devuelto")
    for intruso in (flujo.responsables[0], persona()):
        with pytest.raises(AccionNoPermitida):
            services.corregir(solicitud=s, actor=intruso)
    s.refresh_from_db()
    assert s.estado == Estado.DEVUELTO


def test_an_outside_filers_correction_goes_to_the_stage_roles_common_inbox(flujo):
    s = flujo.radicar(nombre_solicitante="María López", correo_solicitante="maria@correo.com")
    s = services.devolver(solicitud=s, actor=flujo.responsables[0], motivo="Falta la cédula")
    [tarea] = _pendientes(s)
    assert (tarea.es_correccion, tarea.asignada_a, tarea.rol) == (True, None, flujo.roles[0])
    with pytest.raises(AccionNoPermitida):
        services.corregir(solicitud=s, actor=flujo.responsables[1])
    s = services.corregir(solicitud=s, actor=flujo.responsables[0])
    assert s.estado == Estado.EN_TRAMITE


def test_rejecting_closes_with_the_reason_in_history(flujo):
    s = flujo.en_estado("rechazado")
    assert s.estado == Estado.RECHAZADO
    assert s.fecha_cierre is not None and s.etapa_actual is None
    assert _pendientes(s) == []
    evento = _ultimo_evento(s)
    assert evento.accion == Accion.RECHAZADA
    assert "No cumple requisitos" in evento.descripcion
    assert evento.etapa_origen.orden == 1


def test_a_returned_request_can_be_rejected_by_the_stage_role(flujo):
    s = flujo.en_estado("devuelto")
    with pytest.raises(AccionNoPermitida):
        services.rechazar(solicitud=s, actor=flujo.responsables[1], motivo="Sin respuesta")
    s = services.rechazar(solicitud=s, actor=flujo.responsables[0], motivo="Sin respuesta")
    assert s.estado == Estado.RECHAZADO
    assert _pendientes(s) == []


def test_the_filer_may_annul_their_request_and_its_tasks_close(flujo):
    s = flujo.en_estado("anulado")
    assert s.estado == Estado.ANULADO
    assert s.fecha_cierre is not None
    assert _pendientes(s) == []
    assert _ultimo_evento(s).accion == Accion.ANULADA


def test_a_draft_is_annulled_only_by_its_author(flujo):
    borrador = flujo.en_estado("borrador")
    with pytest.raises(AccionNoPermitida):
        services.anular(solicitud=borrador, actor=flujo.responsables[0], motivo="No aplica")
    s = services.anular(solicitud=borrador, actor=flujo.solicitante, motivo="Ya no la necesito")
    assert s.estado == Estado.ANULADO


def test_someone_unrelated_cannot_annul(flujo):
    s = flujo.radicar()
    with pytest.raises(AccionNoPermitida):
        services.anular(solicitud=s, actor=persona(), motivo="Porque sí")


def test_attention_keeps_the_task_pending_and_resuming_returns_to_process(flujo):
    s = flujo.en_estado("requiere_atencion")
    assert s.estado == Estado.REQUIERE_ATENCION
    [tarea] = _pendientes(s)
    assert tarea.etapa.orden == 1
    assert _ultimo_evento(s).accion == Accion.ATENCION
    s = services.reanudar(solicitud=s, actor=flujo.responsables[0])
    assert s.estado == Estado.EN_TRAMITE
    assert _pendientes(s) == [tarea]
    assert _ultimo_evento(s).accion == Accion.REANUDADA


def test_a_request_needing_attention_can_be_returned(flujo):
    s = flujo.en_estado("requiere_atencion")
    s = services.devolver(solicitud=s, actor=flujo.responsables[0], motivo="Aclare la fecha")
    assert s.estado == Estado.DEVUELTO


ACCIONES = {
    "radicar_borrador": lambda f, s: services.radicar_borrador(solicitud=s, actor=f.solicitante),
    "avanzar": lambda f, s: services.avanzar(solicitud=s, actor=f.responsables[0]),
    "aprobar": lambda f, s: services.aprobar(solicitud=s, actor=f.responsables[0]),
    "devolver": lambda f, s: services.devolver(
        solicitud=s, actor=f.responsables[0], motivo="x y z"
    ),
    "corregir": lambda f, s: services.corregir(solicitud=s, actor=f.solicitante),
    "rechazar": lambda f, s: services.rechazar(solicitud=s, actor=f.responsables[0], motivo="xyz"),
    "anular": lambda f, s: services.anular(solicitud=s, actor=f.solicitante, motivo="xyz"),
    "marcar_atencion": lambda f, s: services.marcar_atencion(
        solicitud=s, actor=f.responsables[0], motivo="xyz"
    ),
    "reanudar": lambda f, s: services.reanudar(solicitud=s, actor=f.responsables[0]),
}
ESTADOS = [e.value for e in Estado]
INVALIDAS = [
    (estado, accion)
    for accion, origenes in services.TRANSICIONES.items()
    for estado in ESTADOS
    if estado not in origenes
]


def test_the_state_machine_covers_every_state():
    assert set(ESTADOS) == set(ESTADOS_SOLICITUD)
    for estado in ("aprobado", "rechazado", "anulado"):
        assert all(estado not in origenes for origenes in services.TRANSICIONES.values())


@pytest.mark.parametrize(("estado", "accion"), INVALIDAS)
def test_an_action_not_allowed_from_a_state_is_refused_and_changes_nothing(flujo, estado, accion):
    s = flujo.en_estado(estado)
    eventos, tareas = Evento.objects.count(), Tarea.objects.count()
    with pytest.raises(TransicionInvalida):
        ACCIONES[accion](flujo, s)
    s.refresh_from_db()
    assert s.estado == estado
    assert (Evento.objects.count(), Tarea.objects.count()) == (eventos, tareas)


def test_only_the_stage_role_may_move_the_request(flujo):
    s = flujo.radicar()
    for intruso in (flujo.responsables[1], persona(), flujo.solicitante):
        with pytest.raises(AccionNoPermitida):
            services.avanzar(solicitud=s, actor=intruso)
    s.refresh_from_db()
    assert s.estado == Estado.RADICADO
    assert Evento.objects.filter(solicitud=s).count() == 1


def test_an_assigned_task_is_moved_only_by_its_holder(flujo):
    companera = persona(flujo.roles[0])
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    services.asignar(tarea=tarea, usuario=companera, actor=flujo.responsables[0])
    with pytest.raises(AccionNoPermitida):
        services.avanzar(solicitud=s, actor=flujo.responsables[0])
    assert services.avanzar(solicitud=s, actor=companera).etapa_actual.orden == 2


def test_a_superuser_may_move_any_request(flujo):
    admin = persona(is_superuser=True)
    s = services.avanzar(solicitud=flujo.radicar(), actor=admin)
    assert s.estado == Estado.EN_TRAMITE


def test_an_inactive_person_cannot_act(flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    r1.is_active = False
    r1.save()
    with pytest.raises(AccionNoPermitida):
        services.avanzar(solicitud=s, actor=r1)


def test_taking_a_task_from_the_common_inbox_records_who_has_it(flujo):
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    r1 = flujo.responsables[0]
    tarea = services.asignar(tarea=tarea, usuario=r1, actor=r1)
    assert tarea.asignada_a == r1
    evento = _ultimo_evento(s)
    assert (evento.accion, evento.actor) == (Accion.ASIGNADA, r1)
    assert r1.nombre_visible in evento.descripcion


def test_a_task_is_assigned_only_within_its_role(flujo):
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    with pytest.raises(DatosInvalidos) as error:
        services.asignar(tarea=tarea, usuario=flujo.responsables[1], actor=flujo.responsables[0])
    assert "usuario" in error.value.campos
    with pytest.raises(AccionNoPermitida):
        services.asignar(tarea=tarea, usuario=flujo.responsables[0], actor=flujo.responsables[1])
    tarea.refresh_from_db()
    assert tarea.asignada_a is None


def test_a_colleague_cannot_take_a_task_another_person_holds(flujo):
    r1 = flujo.responsables[0]
    colega = persona(flujo.roles[0])
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    services.asignar(tarea=tarea, usuario=r1, actor=r1)
    eventos = Evento.objects.filter(solicitud=s).count()
    for usuario in (colega, r1):
        with pytest.raises(AccionNoPermitida) as error:
            services.asignar(tarea=tarea, usuario=usuario, actor=colega)
        assert error.value.detalle == (
            "La tarea ya está asignada: solo quien la tiene puede pasarla a otra persona del rol."
        )
    tarea.refresh_from_db()
    assert tarea.asignada_a == r1
    assert services.puede_asignar(tarea=tarea, actor=colega) is False
    assert Evento.objects.filter(solicitud=s).count() == eventos


def test_the_holder_may_hand_the_task_on_and_a_superuser_may_reassign_it(flujo):
    r1 = flujo.responsables[0]
    colega = persona(flujo.roles[0])
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    services.asignar(tarea=tarea, usuario=r1, actor=r1)
    assert services.asignar(tarea=tarea, usuario=colega, actor=r1).asignada_a == colega
    admin = persona(is_superuser=True)
    assert services.puede_asignar(tarea=tarea, actor=admin) is True
    assert services.asignar(tarea=tarea, usuario=r1, actor=admin).asignada_a == r1


def test_a_completed_task_or_the_filers_correction_cannot_be_assigned(flujo):
    s = flujo.radicar()
    [tarea] = _pendientes(s)
    s = services.devolver(solicitud=s, actor=flujo.responsables[0], motivo="Falta firma")
    with pytest.raises(TransicionInvalida):
        services.asignar(tarea=tarea, usuario=flujo.responsables[0], actor=flujo.responsables[0])
    [correccion] = _pendientes(s)
    with pytest.raises(TransicionInvalida):
        services.asignar(
            tarea=correccion, usuario=flujo.responsables[0], actor=flujo.responsables[0]
        )


class TestRadicarValida:
    def test_an_outside_person_needs_name_and_a_valid_email(self, flujo):
        with pytest.raises(DatosInvalidos) as error:
            flujo.radicar(nombre_solicitante="María", correo_solicitante="no-es-correo")
        assert error.value.campos == {
            "correo_solicitante": ["Introduzca un correo electrónico válido."]
        }
        with pytest.raises(DatosInvalidos) as error:
            flujo.radicar(correo_solicitante="maria@correo.com")
        assert list(error.value.campos) == ["nombre_solicitante"]

    def test_a_user_filer_and_an_outside_email_together_are_refused(self, flujo):
        with pytest.raises(DatosInvalidos):
            flujo.radicar(solicitante=flujo.solicitante, correo_solicitante="otra@correo.com")

    def test_filing_needs_the_radicar_permission(self, flujo):
        with pytest.raises(AccionNoPermitida):
            flujo.radicar(solicitante=persona())
        with pytest.raises(AccionNoPermitida):
            flujo.radicar(
                nombre_solicitante="María López",
                correo_solicitante="maria@correo.com",
                actor=persona(),
            )

    def test_an_outside_person_through_a_public_channel_needs_no_user(self, flujo):
        s = flujo.radicar(nombre_solicitante="María López", correo_solicitante="maria@correo.com")
        assert s.es_externa and s.solicitante is None
        assert _ultimo_evento(s).actor is None

    def test_inactive_types_types_without_stages_and_draft_parents_are_refused(self, flujo):
        from tests.solicitudes.factories import TipoSolicitudFactory

        flujo.tipo.activo = False
        flujo.tipo.save()
        with pytest.raises(DatosInvalidos):
            flujo.radicar()
        with pytest.raises(DatosInvalidos):
            services.radicar(
                tipo=TipoSolicitudFactory(),
                solicitante=flujo.solicitante,
                resumen="Un tipo sin etapas",
            )
        flujo.tipo.activo = True
        flujo.tipo.save()
        borrador = flujo.en_estado("borrador")
        with pytest.raises(DatosInvalidos):
            flujo.radicar(padre=borrador)

    def test_summary_is_cleaned_of_invisible_characters(self, flujo):
        s = flujo.radicar(resumen="  Certificado\u200b laboral\u202e urgente  ")
        assert s.resumen == "Certificado laboral urgente"

    def test_parent_and_children_are_linked(self, flujo):
        padre = flujo.radicar()
        hija = flujo.radicar(padre=padre)
        assert hija.radicado_padre == padre.numero_radicado
        assert padre.radicados_hijos == [hija.numero_radicado]
