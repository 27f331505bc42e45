"""The inbox: assigned tasks plus the common inbox of one's roles, overdue and due soon."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.solicitudes import selectors, services
from apps.solicitudes.models import Tarea, bandeja
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db


def _tarea(solicitud) -> Tarea:
    return Tarea.objects.pendientes().get(solicitud=solicitud)


def _ids(qs) -> set[int]:
    return set(qs.values_list("pk", flat=True))


def test_role_scope_is_assigned_tasks_plus_the_common_inbox_of_ones_roles(flujo):
    r1 = flujo.responsables[0]
    companera = persona(flujo.roles[0])
    comun = _tarea(flujo.radicar())
    mia = _tarea(flujo.radicar())
    de_ella = _tarea(flujo.radicar())
    services.asignar(tarea=mia, usuario=r1, actor=r1)
    services.asignar(tarea=de_ella, usuario=companera, actor=companera)
    otra_etapa = _tarea(services.avanzar(solicitud=flujo.radicar(), actor=r1))

    assert _ids(Tarea.objects.pendientes().bandeja_de(r1)) == {comun.pk, mia.pk}
    assert _ids(Tarea.objects.pendientes().bandeja_de(r1, alcance="mias")) == {mia.pk}
    assert _ids(Tarea.objects.pendientes().bandeja_de(companera, "mias")) == {de_ella.pk}
    assert _ids(Tarea.objects.pendientes().bandeja_de(flujo.responsables[1])) == {otra_etapa.pk}
    assert _ids(Tarea.objects.pendientes().bandeja_de(persona())) == set()


def test_completed_tasks_leave_the_inbox(flujo):
    r1 = flujo.responsables[0]
    s = flujo.radicar()
    services.avanzar(solicitud=s, actor=r1)
    assert _ids(Tarea.objects.pendientes().bandeja_de(r1)) == set()
    assert Tarea.objects.bandeja_de(r1).count() == 1  # without pendientes(): history too


def test_the_filers_correction_is_in_their_own_inbox(flujo):
    s = flujo.en_estado("devuelto")
    [tarea] = Tarea.objects.pendientes().bandeja_de(flujo.solicitante, "mias")
    assert tarea.solicitud == s
    assert tarea.es_correccion_de(flujo.solicitante) is True
    assert tarea.es_correccion_de(flujo.responsables[0]) is False
    assert _ids(Tarea.objects.pendientes().bandeja_de(flujo.responsables[0])) == set()


def test_an_inactive_or_anonymous_user_has_an_empty_inbox(flujo):
    flujo.radicar()
    r1 = flujo.responsables[0]
    r1.is_active = False
    r1.save()
    assert Tarea.objects.pendientes().bandeja_de(r1).count() == 0
    assert Tarea.objects.pendientes().bandeja_de(None).count() == 0


def test_unknown_scope_is_an_error(flujo):
    with pytest.raises(ValueError):
        Tarea.objects.bandeja_de(flujo.responsables[0], alcance="todas")


def test_overdue_and_due_soon_are_relative_to_now(flujo):
    r1 = flujo.responsables[0]
    ahora = timezone.now()
    vencida = _tarea(flujo.radicar())
    pronto = _tarea(flujo.radicar())
    lejos = _tarea(flujo.radicar())
    Tarea.objects.filter(pk=vencida.pk).update(vence_en=ahora - timedelta(minutes=1))
    Tarea.objects.filter(pk=pronto.pk).update(vence_en=ahora + timedelta(hours=47))
    Tarea.objects.filter(pk=lejos.pk).update(vence_en=ahora + timedelta(hours=49))
    bandeja = Tarea.objects.pendientes().bandeja_de(r1)
    assert _ids(bandeja.vencidas(ahora)) == {vencida.pk}
    assert _ids(bandeja.por_vencer(ahora)) == {pronto.pk}
    assert _ids(bandeja.por_vencer(ahora, horas=72)) == {pronto.pk, lejos.pk}
    assert selectors.contar_bandeja(r1, ahora=ahora) == {"total": 3, "vencidas": 1, "por_vencer": 1}
    assert [t.pk for t in selectors.bandeja(r1, solo_vencidas=True, ahora=ahora)] == [vencida.pk]
    assert [t.pk for t in selectors.bandeja(r1, ahora=ahora)] == [vencida.pk, pronto.pk, lejos.pk]
    assert [t.pk for t in selectors.bandeja(r1, ahora=ahora, limite=2)] == [vencida.pk, pronto.pk]
    for tarea in Tarea.objects.filter(pk__in=[vencida.pk, pronto.pk, lejos.pk]):
        assert tarea.vencida_en(ahora) is (tarea.pk == vencida.pk)
        assert tarea.por_vencer_en(ahora) is (tarea.pk == pronto.pk)


def test_a_completed_task_is_neither_overdue_nor_due(flujo):
    s = flujo.radicar()
    tarea = _tarea(s)
    Tarea.objects.filter(pk=tarea.pk).update(vence_en=timezone.now() - timedelta(days=3))
    services.avanzar(solicitud=s, actor=flujo.responsables[0])
    tarea.refresh_from_db()
    assert tarea.vencida_en() is False
    assert Tarea.objects.vencidas().filter(pk=tarea.pk).exists() is False


def test_task_line_fields(flujo):
    ahora = timezone.now()
    tarea = _tarea(flujo.radicar())
    Tarea.objects.filter(pk=tarea.pk).update(recibida_en=ahora - timedelta(days=3, hours=2))
    tarea.refresh_from_db()
    assert tarea.dias_pendiente(ahora) == 3
    assert tarea.rol_flujo == flujo.roles[0].name
    assert tarea.asignada_a_usuario(flujo.responsables[0]) is False
    assert tarea.pendiente is True


@pytest.mark.parametrize("cantidad", [1, 8])
def test_reading_the_inbox_costs_the_same_queries_whatever_its_size(
    flujo, django_assert_num_queries, cantidad
):
    for _ in range(cantidad):
        flujo.radicar()
    r1 = type(flujo.responsables[0]).objects.get(pk=flujo.responsables[0].pk)
    # the user's roles + the most urgent ids + those tasks with request, type, stage and role
    with django_assert_num_queries(3):
        lineas = [
            (t.solicitud.numero_radicado, t.solicitud.tipo.nombre, t.etapa.nombre, t.rol_flujo)
            for t in selectors.bandeja(r1, limite=50)
        ]
    assert len(lineas) == cantidad


@pytest.mark.parametrize("total", [None, 16, selectors.BANDEJA_PEQUENA + 1])
@pytest.mark.parametrize("solo_vencidas", [False, True])
def test_the_inbox_page_is_the_most_urgent_of_all_its_parts_whatever_the_part(
    flujo, solo_vencidas, total
):
    # One person in the three roles, with tasks of her own and in each role's common inbox, due
    # times interleaved across the parts: the page must be the first `limite` of them all (on
    # PostgreSQL each part is cut to `limite` before the union; a part cut in the wrong order,
    # or the union not sorted again, gives another page).
    jefa = persona(*flujo.roles)
    ahora = timezone.now()
    tareas = [_tarea(flujo.radicar()) for _ in range(16)]
    for i, tarea in enumerate(tareas):
        cambios = {
            "rol": flujo.roles[i % 3],
            "vence_en": ahora + timedelta(hours=(i * 7) % 16 - 8),  # 8 overdue, 8 not
            "asignada_a": jefa if i % 4 == 0 else None,
        }
        Tarea.objects.filter(pk=tarea.pk).update(**cambios)
    pendientes = Tarea.objects.pendientes().bandeja_de(jefa)
    if solo_vencidas:
        pendientes = pendientes.vencidas(ahora)
    esperadas = list(pendientes.order_by("vence_en", "id").values_list("pk", flat=True))
    assert len(esperadas) == (8 if solo_vencidas else 16)

    for limite in (1, 3, 5, 20):
        pagina = selectors.bandeja(
            jefa, limite=limite, solo_vencidas=solo_vencidas, ahora=ahora, total=total
        )
        assert [t.pk for t in pagina] == esperadas[:limite]
    # A later page (the inbox screen's): each part must give its first `desde + limite` rows.
    for desde, limite in ((1, 3), (3, 5), (5, 20)):
        pagina = selectors.bandeja(
            jefa, limite=limite, desde=desde, solo_vencidas=solo_vencidas, ahora=ahora, total=total
        )
        assert [t.pk for t in pagina] == esperadas[desde : desde + limite]


@pytest.mark.parametrize(
    ("total", "partes_en_postgresql"),
    [(None, 4), (selectors.BANDEJA_PEQUENA + 1, 4), (selectors.BANDEJA_PEQUENA, 2), (3, 2)],
)
def test_a_small_counted_inbox_is_read_in_its_two_halves_and_a_large_one_by_role(
    flujo, total, partes_en_postgresql
):
    # On PostgreSQL a large (or uncounted) inbox is read a part per role (three roles here,
    # plus the assigned tasks); a small one in its two halves. SQLite always reads the halves.
    jefa = persona(*flujo.roles)
    esperadas = [_tarea(flujo.radicar()).pk]
    with CaptureQueriesContext(connection) as consultas:
        pagina = selectors.bandeja(jefa, total=total)
    assert [t.pk for t in pagina] == esperadas
    ids = next(q["sql"] for q in consultas.captured_queries if "UNION ALL" in q["sql"])
    partes = partes_en_postgresql if connection.vendor == "postgresql" else 2
    assert ids.count("UNION ALL") == partes - 1


@pytest.mark.parametrize("total", [None, selectors.BANDEJA_PEQUENA])
def test_mis_tareas_lines_are_the_inbox_pages_tasks_and_read_as_the_page_reads_them(flujo, total):
    # mis_tareas reads its page as plain rows (lineas_de_bandeja); the inbox screen as model
    # objects (bandeja). Same tasks, same order, and the same rules on the same values.
    jefa = persona(*flujo.roles)
    ahora = timezone.now()
    for i, tarea in enumerate(_tarea(flujo.radicar()) for _ in range(6)):
        Tarea.objects.filter(pk=tarea.pk).update(
            rol=flujo.roles[i % 3],
            vence_en=ahora + timedelta(hours=30 * i - 40),  # overdue, due soon, later
            recibida_en=ahora - timedelta(days=i, hours=1),
            asignada_a=jefa if i % 2 else None,
            es_correccion=i == 3,
        )
    pagina = selectors.bandeja(jefa, ahora=ahora, limite=5, total=total)
    lineas = selectors.lineas_de_bandeja(jefa, ahora=ahora, limite=5, total=total)
    assert [fila["solicitud_id"] for fila in lineas] == [t.solicitud_id for t in pagina]
    assert len(lineas) == 5
    for fila, tarea in zip(lineas, pagina, strict=True):
        assert bandeja.nombre_rol_flujo(fila["rol__name"]) == tarea.rol_flujo
        assert fila["solicitud__numero_radicado"] == tarea.solicitud.numero_visible
        vistas = (
            bandeja.vencida(fila["vence_en"], fila["completada_en"], ahora),
            bandeja.por_vencer(fila["vence_en"], fila["completada_en"], ahora),
            bandeja.dias_pendiente(fila["recibida_en"], fila["completada_en"], ahora),
            bandeja.asignada_a_usuario(fila["asignada_a_id"], jefa),
            bandeja.es_correccion_de(fila["es_correccion"], fila["asignada_a_id"], jefa),
        )
        assert vistas == (
            tarea.vencida_en(ahora),
            tarea.por_vencer_en(ahora),
            tarea.dias_pendiente(ahora),
            tarea.asignada_a_usuario(jefa),
            tarea.es_correccion_de(jefa),
        )
    # Every rule took both of its values somewhere on the page.
    assert {bandeja.vencida(f["vence_en"], None, ahora) for f in lineas} == {True, False}
    assert {bandeja.por_vencer(f["vence_en"], None, ahora) for f in lineas} == {True, False}
    assert {bandeja.asignada_a_usuario(f["asignada_a_id"], jefa) for f in lineas} == {True, False}
    correcciones = {
        bandeja.es_correccion_de(f["es_correccion"], f["asignada_a_id"], jefa) for f in lineas
    }
    assert correcciones == {True, False}


@pytest.mark.parametrize("solo_vencidas", [False, True])
@pytest.mark.parametrize("total", [None, selectors.BANDEJA_PEQUENA])
def test_mis_tareas_lines_are_the_pages_rows_as_values_reads_them_in_one_statement_on_postgresql(
    flujo, django_assert_num_queries, total, solo_vencidas
):
    # On PostgreSQL the page's ids and their rows are one statement (each row by its pk in a
    # lateral join), with the values the driver gives: they must be the rows `values()` reads,
    # in the page's order. Elsewhere the ids and the rows are two queries.
    jefa = persona(*flujo.roles)
    bandeja.ids_roles(jefa)  # the roles' query, once per user object, is not the page's
    ahora = timezone.now()
    for i, tarea in enumerate(_tarea(flujo.radicar()) for _ in range(5)):
        Tarea.objects.filter(pk=tarea.pk).update(
            rol=flujo.roles[i % 3],
            vence_en=ahora + timedelta(hours=(i * 7) % 5 - 2),  # interleaved across the parts
            asignada_a=jefa if i % 2 else None,
        )
    ids = [
        t.pk
        for t in selectors.bandeja(
            jefa, ahora=ahora, limite=4, total=total, solo_vencidas=solo_vencidas
        )
    ]
    assert len(ids) == (2 if solo_vencidas else 4)
    esperadas = list(Tarea.objects.filter(pk__in=ids).para_linea())
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        lineas = selectors.lineas_de_bandeja(
            jefa, ahora=ahora, limite=4, total=total, solo_vencidas=solo_vencidas
        )
    assert lineas == esperadas
    assert [type(v) for v in lineas[0].values()] == [type(v) for v in esperadas[0].values()]


def test_mis_tareas_lines_of_an_empty_inbox_are_an_empty_list(flujo):
    # A task waits in the first role's common inbox: it is in that role's lines, and in no one
    # else's (the empty page is the inbox rule's answer, not an empty table's).
    esperada = _tarea(flujo.radicar())
    del_rol = persona(flujo.roles[0])
    assert [f["solicitud_id"] for f in selectors.lineas_de_bandeja(del_rol)] == [
        esperada.solicitud_id
    ]
    nadie = persona(*flujo.roles[1:])
    assert selectors.lineas_de_bandeja(nadie) == []
