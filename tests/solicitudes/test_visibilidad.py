"""Who sees a request: filer, task holders, participants, and holders of ver_todas."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from apps.solicitudes import selectors, services
from apps.solicitudes.models import Solicitud, Tarea
from tests.factories import GroupFactory, dar_permisos, permiso
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db


def _visibles(usuario) -> set[int]:
    return set(Solicitud.objects.visibles_para(usuario).values_list("pk", flat=True))


def test_the_filer_sees_their_request_and_an_outsider_does_not(flujo):
    s = flujo.radicar()
    assert _visibles(flujo.solicitante) == {s.pk}
    assert _visibles(persona()) == set()


def test_a_colleague_with_ver_todas_sees_every_request(flujo):
    s1 = flujo.radicar()
    s2 = flujo.radicar(nombre_solicitante="María López", correo_solicitante="maria@correo.com")
    coordinadora = persona(permisos=["solicitudes.ver_todas"])
    assert _visibles(coordinadora) == {s1.pk, s2.pk}


def test_ver_todas_through_a_role_counts_too(flujo):
    s = flujo.radicar()
    coordinacion = GroupFactory(name="Coordinación")
    coordinacion.permissions.add(permiso("solicitudes.ver_todas"))
    assert _visibles(persona(coordinacion)) == {s.pk}


def test_a_superuser_sees_everything(flujo):
    s = flujo.radicar()
    assert _visibles(persona(is_superuser=True)) == {s.pk}


def test_the_role_of_a_pending_common_inbox_task_sees_the_request(flujo):
    s = flujo.radicar()
    r1, r2, _ = flujo.responsables
    assert _visibles(r1) == {s.pk}
    assert _visibles(r2) == set()  # its stage has not come yet


def test_a_person_assigned_a_task_keeps_seeing_it_after_completing_it(flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    companera = persona(flujo.roles[0])
    [tarea] = Tarea.objects.pendientes().filter(solicitud=s)
    services.asignar(tarea=tarea, usuario=r1, actor=r1)
    # Assigned to r1: the rest of the role no longer has it in a common inbox.
    assert _visibles(companera) == set()
    services.avanzar(solicitud=s, actor=r1)
    r1.groups.clear()  # even without the role, having had the task is enough
    assert _visibles(r1) == {s.pk}


def test_a_role_member_who_never_acted_loses_sight_once_the_stage_is_done(flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    companera = persona(flujo.roles[0])
    assert _visibles(companera) == {s.pk}
    services.avanzar(solicitud=s, actor=r1)
    assert _visibles(companera) == set()
    assert _visibles(r1) == {s.pk}  # r1 acted: the history event makes them a participant
    assert _visibles(flujo.responsables[1]) == {s.pk}  # next stage's role has it now


def test_commenting_makes_a_person_a_participant(flujo):
    s = flujo.radicar()
    auditor = persona(permisos=["solicitudes.ver_todas"])
    services.comentar(solicitud=s, autor=auditor, texto="Revisaré el soporte.")
    auditor.user_permissions.clear()
    auditor = type(auditor).objects.get(pk=auditor.pk)  # drop the permission cache
    assert _visibles(auditor) == {s.pk}


def test_an_inactive_user_sees_nothing_not_even_their_own(flujo):
    flujo.radicar()
    flujo.solicitante.is_active = False
    flujo.solicitante.save()
    assert _visibles(flujo.solicitante) == set()
    jefa = persona(permisos=["solicitudes.ver_todas"], is_active=False)
    assert _visibles(jefa) == set()


def test_anonymous_and_missing_users_see_nothing(flujo):
    flujo.radicar()
    assert _visibles(AnonymousUser()) == set()
    assert _visibles(None) == set()


def test_drafts_are_visible_only_to_their_author(flujo):
    borrador = flujo.en_estado("borrador")
    assert _visibles(flujo.solicitante) == {borrador.pk}
    assert _visibles(flujo.responsables[0]) == set()
    assert _visibles(persona(permisos=["solicitudes.ver_todas"])) == set()
    radicada = services.radicar_borrador(solicitud=borrador, actor=flujo.solicitante)
    assert _visibles(persona(permisos=["solicitudes.ver_todas"])) == {radicada.pk}


def test_visibility_chains_with_the_other_filters(flujo):
    abierta = flujo.radicar(resumen="Certificado de tiempo de servicio")
    cerrada = flujo.en_estado("rechazado")
    qs = Solicitud.objects.visibles_para(flujo.solicitante)
    assert set(qs.pendientes().values_list("pk", flat=True)) == {abierta.pk}
    assert set(qs.cerradas().values_list("pk", flat=True)) == {cerrada.pk}
    assert list(qs.buscar("tiempo servicio")) == [abierta]
    assert list(qs.por_numero(cerrada.numero_radicado.lower())) == [cerrada]
    assert qs.del_solicitante(flujo.solicitante).count() == 2


def test_selector_puede_ver_and_solicitud_visible_follow_the_rule(flujo):
    s = flujo.radicar()
    extrano = persona()
    assert selectors.puede_ver(flujo.solicitante, s) is True
    assert selectors.puede_ver(extrano, s) is False
    assert selectors.solicitud_visible(flujo.solicitante, f"  {s.numero_radicado.lower()} ") == s
    assert selectors.solicitud_visible(extrano, s.numero_radicado) is None


def _crear_visibles(flujo, cantidad: int) -> None:
    r1 = flujo.responsables[0]
    for i in range(cantidad):
        s = flujo.radicar(resumen=f"Solicitud número {i} de la prueba")
        if i % 3 == 1:
            services.avanzar(solicitud=s, actor=r1)
        if i % 3 == 2:
            services.comentar(solicitud=s, autor=flujo.solicitante, texto="Seguimiento")


def _listar(usuario) -> list[tuple]:
    filas = Solicitud.objects.visibles_para(usuario).para_listado().con_hijos()[:50]
    return [
        (
            s.numero_radicado,
            s.tipo.nombre,
            s.nombre_etapa_actual,
            s.nombre_rol_responsable,
            s.nombre_visible_solicitante,
            s.radicado_padre,
            s.radicados_hijos,
        )
        for s in filas
    ]


@pytest.mark.parametrize("cantidad", [2, 12])
def test_listing_visible_requests_costs_the_same_queries_whatever_the_volume(
    flujo, django_assert_num_queries, cantidad
):
    _crear_visibles(flujo, cantidad)
    usuario = type(flujo.solicitante).objects.get(pk=flujo.solicitante.pk)
    # 2 permission lookups (user, groups) + the user's roles + the listing + children prefetch.
    with django_assert_num_queries(5):
        filas = _listar(usuario)
    assert len(filas) == cantidad


@pytest.mark.parametrize("cantidad", [2, 12])
def test_listing_for_ver_todas_costs_the_same_queries_whatever_the_volume(
    flujo, django_assert_num_queries, cantidad
):
    _crear_visibles(flujo, cantidad)
    jefa = persona(permisos=["solicitudes.ver_todas"])
    jefa = type(jefa).objects.get(pk=jefa.pk)
    with django_assert_num_queries(4):
        filas = _listar(jefa)
    assert len(filas) == cantidad


def test_granting_ver_todas_directly_is_enough(flujo):
    s = flujo.radicar()
    otra = persona()
    dar_permisos(otra, "solicitudes.ver_todas")
    assert _visibles(otra) == {s.pk}


def test_a_task_assigned_to_someone_lets_them_see_it_even_without_acting_or_the_role(flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    companera = persona(flujo.roles[0])
    [tarea] = Tarea.objects.pendientes().filter(solicitud=s)
    services.asignar(tarea=tarea, usuario=companera, actor=r1)
    companera.groups.clear()
    assert _visibles(companera) == {s.pk}
    # Completed by someone else (an administrator): having had the task still counts.
    services.avanzar(solicitud=s, actor=persona(is_superuser=True))
    assert _visibles(companera) == {s.pk}


def test_listings_show_newest_filings_first_and_drafts_last_on_every_database(flujo):
    borrador = flujo.en_estado("borrador")
    primera = flujo.radicar()
    segunda = flujo.radicar()
    listado = list(Solicitud.objects.visibles_para(flujo.solicitante).para_listado())
    assert listado == [segunda, primera, borrador]
    assert list(Solicitud.objects.filter(solicitante=flujo.solicitante)) == listado
