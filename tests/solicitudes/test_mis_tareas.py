"""mis_tareas: the caller's inbox (assigned to them plus their roles' common inbox), most urgent
first, with age and due flags; the counts are of the whole inbox, at a fixed number of queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.models import Tarea
from hub.herramientas.registro import registro
from tests.factories import GroupFactory, UserFactory
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
BANDEJA = "solicitudes.bandeja.ver"
FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
CAMPOS = {
    "numero_radicado",
    "id_solicitud",
    "enlace",
    "url",
    "tipo",
    "resumen",
    "estado_solicitud",
    "etapa",
    "rol_flujo",
    "requiere_firma",
    "asignada_a_mi",
    "es_correccion_mia",
    "recibida",
    "dias_pendiente",
    "vence_en",
    "vencida",
    "por_vencer",
}


@pytest.fixture
def escenario():
    """Two-stage type (second stage signs); a reviewer and a colleague in the first role."""
    revision = GroupFactory(name="Revisión MT")
    firma = GroupFactory(name="Firma MT")
    tipo = tipo_con_etapas(
        revision, firma, nombre="Certificado MT", plazos={1: 72, 2: 24}, firmas={2: True}
    )
    revisora = persona(revision, permisos=[BANDEJA, USAR], first_name="Revisora")
    colega = persona(revision, permisos=[BANDEJA, USAR], first_name="Colega")
    firmante = persona(firma, permisos=[BANDEJA, USAR], first_name="Firmante")
    dueno = persona(permisos=["solicitudes.radicar", BANDEJA, USAR], first_name="Dueño")
    return {
        "tipo": tipo,
        "revision": revision,
        "firma": firma,
        "revisora": revisora,
        "colega": colega,
        "firmante": firmante,
        "dueno": dueno,
    }


def _radicar(e, resumen="Certificado para el banco"):
    return services.radicar(tipo=e["tipo"], solicitante=e["dueno"], resumen=resumen)


def _tarea(solicitud) -> Tarea:
    return Tarea.objects.pendientes().get(solicitud=solicitud)


def _vence_en(solicitud, horas: float) -> Tarea:
    """Make the pending task of the request fall due `horas` from now (negative: overdue)."""
    tarea = _tarea(solicitud)
    tarea.vence_en = timezone.now() + timedelta(hours=horas)
    tarea.save(update_fields=["vence_en"])
    return tarea


def _tareas(client, cabeceras, **argumentos):
    return llamar(client, "mis_tareas", argumentos, **cabeceras)


_valida = validador("mis_tareas")


def _numeros(datos) -> list[str]:
    return [t["numero_radicado"] for t in datos["tareas"]]


# --- identity and permission ------------------------------------------------------------------


def test_with_the_api_key_alone_it_is_sin_identidad(client, clave):
    error_herramienta(_tareas(client, clave), "SIN_IDENTIDAD")


@pytest.mark.parametrize(
    "permisos", [[USAR], [USAR, "solicitudes.radicar"], [USAR, "solicitudes.ver_todas"]]
)
def test_without_bandeja_ver_it_is_sin_permiso(client, como, escenario, permisos):
    # Even in the role of a pending task: the inbox tool needs the inbox permission.
    sin_permiso = persona(escenario["revision"], permisos=permisos)
    _radicar(escenario)
    error_herramienta(_tareas(client, como(sin_permiso)), "SIN_PERMISO")


def test_the_tool_is_listed_read_only_with_its_schemas(client, como, escenario):
    cabeceras = como(escenario["revisora"])
    herramientas = {t["name"]: t for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    h = herramientas["mis_tareas"]
    assert h["annotations"]["readOnlyHint"] is True
    assert h["outputSchema"] == registro.obtener("mis_tareas").esquema_salida
    propiedades = h["inputSchema"]["properties"]
    assert propiedades["alcance"]["enum"] == ["rol", "mias"]
    assert propiedades["alcance"]["default"] == "rol"
    assert propiedades["solo_vencidas"]["default"] is False
    assert (propiedades["limite"]["minimum"], propiedades["limite"]["maximum"]) == (1, 50)
    assert propiedades["limite"]["default"] == 20


# --- the inbox from three sides ----------------------------------------------------------------


def test_the_role_member_sees_the_common_inbox_with_every_field(client, como, escenario):
    s = _radicar(escenario, "Certificado\u200b para el banco\u202e")
    tarea = _tarea(s)
    Tarea.objects.filter(pk=tarea.pk).update(recibida_en=timezone.now() - timedelta(days=3))
    r = _tareas(client, como(escenario["revisora"]))
    datos = _valida(r)
    assert datos["alcance"] == "rol"
    assert (datos["total_bandeja"], datos["mostradas"]) == (1, 1)
    [item] = datos["tareas"]
    assert set(item) == CAMPOS
    tarea.refresh_from_db()
    assert item == {
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": f"/solicitudes/{s.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{s.pk}",
        "tipo": "Certificado MT",
        "resumen": "Certificado para el banco",  # invisible characters removed
        "estado_solicitud": "radicado",
        "etapa": "Etapa 1 de Certificado MT",
        "rol_flujo": "Revisión MT",
        "requiere_firma": False,
        "asignada_a_mi": False,
        "es_correccion_mia": False,
        "recibida": timezone.localtime(tarea.recibida_en).strftime("%Y-%m-%d %H:%M"),
        "dias_pendiente": 3,
        "vence_en": timezone.localtime(tarea.vence_en).strftime("%Y-%m-%d %H:%M"),
        "vencida": False,
        "por_vencer": False,  # due in 72 hours from filing
    }
    assert FECHA.match(item["recibida"]) and FECHA.match(item["vence_en"])
    texto = r.resultado["content"][0]["text"]
    assert "Tiene 1 tarea(s) pendiente(s) en su bandeja" in texto
    assert "Se muestra la más urgente" in texto
    assert s.numero_radicado in texto


def test_the_holder_of_an_assigned_task_sees_it_in_mias(client, como, escenario):
    s = _radicar(escenario)
    revisora = escenario["revisora"]
    services.asignar(tarea=_tarea(s), usuario=revisora, actor=revisora)
    cabeceras = como(revisora)
    [item] = _valida(_tareas(client, cabeceras, alcance="mias"))["tareas"]
    assert item["numero_radicado"] == s.numero_radicado
    assert item["asignada_a_mi"] is True
    assert _valida(_tareas(client, cabeceras))["total_bandeja"] == 1  # rol includes assigned


def test_mias_leaves_out_the_common_inbox(client, como, escenario):
    _radicar(escenario)
    datos = _valida(_tareas(client, como(escenario["revisora"]), alcance="mias"))
    assert datos == {
        "alcance": "mias",
        "total_bandeja": 0,
        "mostradas": 0,
        "vencidas": 0,
        "por_vencer": 0,
        "tareas": [],
    }


def test_a_colleague_no_longer_sees_a_task_assigned_to_someone_else(client, como, escenario):
    s = _radicar(escenario)
    otra = _radicar(escenario, "Otro certificado")
    revisora = escenario["revisora"]
    services.asignar(tarea=_tarea(s), usuario=revisora, actor=revisora)
    datos = _valida(_tareas(client, como(escenario["colega"])))
    assert _numeros(datos) == [otra.numero_radicado]


def test_an_outsider_with_the_permission_has_an_empty_inbox(client, como, escenario):
    _radicar(escenario)
    extrano = UserFactory(permisos=[USAR, BANDEJA])
    r = _tareas(client, como(extrano))
    datos = _valida(r)
    assert datos["total_bandeja"] == 0 and datos["tareas"] == []
    assert "Tiene 0 tarea(s)" in r.resultado["content"][0]["text"]


def test_the_filers_correction_is_es_correccion_mia(client, como, escenario):
    s = _radicar(escenario)
    services.devolver(solicitud=s, actor=escenario["revisora"], motivo="Falta el soporte")
    [item] = _valida(_tareas(client, como(escenario["dueno"])))["tareas"]
    assert item["numero_radicado"] == s.numero_radicado
    assert item["estado_solicitud"] == "devuelto"
    assert item["es_correccion_mia"] is True and item["asignada_a_mi"] is True
    assert item["rol_flujo"] == "Solicitante"
    assert item["etapa"] == "Corrección: Etapa 1 de Certificado MT"
    # The reviewer's task was completed with the return.
    assert _valida(_tareas(client, como(escenario["revisora"])))["total_bandeja"] == 0


def test_a_signing_stage_says_requiere_firma(client, como, escenario):
    s = _radicar(escenario)
    services.avanzar(solicitud=s, actor=escenario["revisora"])
    [item] = _valida(_tareas(client, como(escenario["firmante"])))["tareas"]
    assert item["requiere_firma"] is True
    assert item["estado_solicitud"] == "en_tramite"
    assert item["etapa"] == "Etapa 2 de Certificado MT"
    assert item["rol_flujo"] == "Firma MT"
    assert item["por_vencer"] is True  # 24-hour stage


# --- due dates, counts and order ---------------------------------------------------------------


@pytest.fixture
def tres_plazos(escenario):
    """Three tasks of the reviewer's role: overdue, due within 48 h, due in 100 h."""
    vencida = _radicar(escenario, "Vencida")
    pronto = _radicar(escenario, "Vence pronto")
    lejos = _radicar(escenario, "Vence lejos")
    _vence_en(vencida, -5)
    _vence_en(pronto, 10)
    _vence_en(lejos, 100)
    return vencida, pronto, lejos


def test_flags_and_counts_and_most_urgent_first(client, como, escenario, tres_plazos):
    vencida, pronto, lejos = tres_plazos
    r = _tareas(client, como(escenario["revisora"]))
    datos = _valida(r)
    assert (datos["total_bandeja"], datos["vencidas"], datos["por_vencer"]) == (3, 1, 1)
    assert _numeros(datos) == [s.numero_radicado for s in (vencida, pronto, lejos)]
    banderas = [(t["vencida"], t["por_vencer"]) for t in datos["tareas"]]
    assert banderas == [(True, False), (False, True), (False, False)]
    assert "VENCIDA" in r.resultado["content"][0]["text"]


def test_the_48_hour_window_holds_at_its_edges(client, como, escenario):
    # A minute inside and a minute outside of each edge: overdue / due within 48 h / later.
    plazos = {"recien_vencida": -1 / 60, "casi_48": 48 - 1 / 60, "pasadas_48": 48 + 1 / 60}
    for resumen, horas in plazos.items():
        _vence_en(_radicar(escenario, resumen), horas)
    datos = _valida(_tareas(client, como(escenario["revisora"])))
    banderas = {t["resumen"]: (t["vencida"], t["por_vencer"]) for t in datos["tareas"]}
    assert banderas == {
        "recien_vencida": (True, False),
        "casi_48": (False, True),
        "pasadas_48": (False, False),
    }
    assert (datos["total_bandeja"], datos["vencidas"], datos["por_vencer"]) == (3, 1, 1)


def test_the_counts_are_of_the_whole_inbox_not_the_page(client, como, escenario, tres_plazos):
    datos = _valida(_tareas(client, como(escenario["revisora"]), limite=1))
    assert datos["mostradas"] == 1 and len(datos["tareas"]) == 1
    assert (datos["total_bandeja"], datos["vencidas"], datos["por_vencer"]) == (3, 1, 1)
    assert datos["tareas"][0]["vencida"] is True


def test_solo_vencidas_shows_only_overdue_tasks(client, como, escenario, tres_plazos):
    vencida = tres_plazos[0]
    datos = _valida(_tareas(client, como(escenario["revisora"]), solo_vencidas=True))
    assert _numeros(datos) == [vencida.numero_radicado]
    assert datos["mostradas"] == 1 and datos["total_bandeja"] == 3


def test_solo_vencidas_with_nothing_overdue_says_so(client, como, escenario):
    _radicar(escenario)
    r = _tareas(client, como(escenario["revisora"]), solo_vencidas=True)
    datos = _valida(r)
    assert datos["tareas"] == [] and datos["total_bandeja"] == 1
    assert "Ninguna está vencida" in r.resultado["content"][0]["text"]


def test_completed_tasks_leave_the_inbox(client, como, escenario):
    s = _radicar(escenario)
    services.avanzar(solicitud=s, actor=escenario["colega"])
    assert _valida(_tareas(client, como(escenario["revisora"])))["total_bandeja"] == 0


# --- limite and argument bounds -----------------------------------------------------------------


def test_limite_defaults_to_twenty(client, como, escenario):
    for i in range(21):
        _radicar(escenario, f"Certificado número {i}")
    r = _tareas(client, como(escenario["revisora"]))
    datos = _valida(r)
    assert (datos["total_bandeja"], datos["mostradas"]) == (21, 20)
    assert "Se muestran las 20 más urgentes" in r.resultado["content"][0]["text"]


@pytest.mark.parametrize("limite", [1, 50])
def test_limite_accepts_its_bounds(client, como, escenario, limite):
    _radicar(escenario)
    _radicar(escenario, "Otro certificado")
    datos = _valida(_tareas(client, como(escenario["revisora"]), limite=limite))
    assert datos["mostradas"] == min(limite, 2)


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({"limite": 0}, "limite"),
        ({"limite": 51}, "limite"),
        ({"alcance": "todas"}, "alcance"),
        ({"solo_vencidas": "quizas"}, "solo_vencidas"),
        ({"usuario": "otra"}, "usuario"),
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como, escenario, argumentos, campo):
    r = _tareas(client, como(escenario["revisora"]), **argumentos)
    assert campo in error_herramienta(r, "DATOS_INVALIDOS")["campos"]


# --- cost ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("argumentos", [{}, {"alcance": "mias"}, {"solo_vencidas": True}])
def test_the_cost_does_not_grow_with_the_inbox(
    client, como, escenario, django_assert_num_queries, argumentos
):
    revisora = escenario["revisora"]
    primera = _radicar(escenario, "Primera")
    services.asignar(tarea=_tarea(primera), usuario=revisora, actor=revisora)
    _vence_en(primera, -1)
    cabeceras = como(revisora)
    _tareas(client, cabeceras, **argumentos)
    with CaptureQueriesContext(connection) as antes:
        _valida(_tareas(client, cabeceras, **argumentos))
    for i in range(6):
        s = _radicar(escenario, f"Más trabajo {i}")
        services.asignar(tarea=_tarea(s), usuario=revisora, actor=revisora)
        _vence_en(s, -2 - i)
    with django_assert_num_queries(len(antes.captured_queries)):
        datos = _valida(_tareas(client, cabeceras, **argumentos))
    assert datos["mostradas"] == 7
