"""resumen_solicitud: status, stage and progress, who acts next and since when, the latest history,
and on request the latest chat messages and the non-sensitive form fields; only for who may see
the request (one indistinguishable not-found answer otherwise), at a fixed number of queries."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.models import CampoFormulario, Comentario, Tarea
from hub.herramientas.registro import registro
from tests.busqueda import REFERENCIA_SOLICITUD
from tests.factories import AreaFactory, GroupFactory, UserFactory
from tests.mcp_cliente import error_herramienta, llamar, no_encontrado_igual, rpc, validador
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
BASICOS = REFERENCIA_SOLICITUD | {
    "estado_visible",
    "etapa_actual",
    "resumen",
    "solicitante",
    "area",
    "fecha_radicacion",
    "fecha_actualizacion",
    "fecha_cierre",
    "radicado_padre",
    "radicados_hijos",
    "progreso",
    "proximo_responsable",
    "total_eventos",
    "historial",
}
CAMPOS_FORMULARIO = [
    {"nombre": "motivo", "etiqueta": "Motivo", "valor": "Trámite\u200b de crédito hipotecario"},
    {"nombre": "cedula", "etiqueta": "Cédula", "valor": "1020304050"},
    {"nombre": "telefono_contacto", "etiqueta": "Teléfono", "valor": "3001234567"},
    {"nombre": "observaciones", "etiqueta": "Observaciones", "valor": "Escribir a ana@correo.co"},
    {"nombre": "destino", "etiqueta": "Dirigido a", "valor": "Banco de Bogotá"},
    {"nombre": "anexo", "etiqueta": "Anexo", "valor": "x", "sensible": True},
    {"nombre": "vacio", "etiqueta": "Vacío", "valor": ""},
]


@pytest.fixture
def escenario():
    """Three-stage type; the owner's request advanced by the first reviewer (now at stage 2)."""
    roles = [GroupFactory(name=f"Rol RS {i}") for i in (1, 2, 3)]
    area = AreaFactory(nombre="Talento Humano RS", sigla="THRS")
    tipo = tipo_con_etapas(*roles, nombre="Certificado RS", area=area, plazos={2: 24})
    dueno = persona(
        permisos=["solicitudes.radicar", USAR], first_name="Ana", last_name="Dueña", username="ana"
    )
    revisores = [
        persona(rol, permisos=[USAR, "solicitudes.bandeja.ver"], first_name=f"Revisor{i}")
        for i, rol in enumerate(roles, 1)
    ]
    s = services.radicar(
        tipo=tipo,
        solicitante=dueno,
        resumen="Certificado\u200b para el banco\u202e",
        campos=CAMPOS_FORMULARIO,
    )
    s = services.avanzar(solicitud=s, actor=revisores[0], comentario="Revisado, pasa a firma")
    return {"tipo": tipo, "roles": roles, "dueno": dueno, "revisores": revisores, "s": s}


def _resumen(client, cabeceras, numero, **argumentos):
    return llamar(
        client, "resumen_solicitud", {"numero_radicado": numero, **argumentos}, **cabeceras
    )


_valida = validador("resumen_solicitud")


def _local(momento) -> str:
    return timezone.localtime(momento).strftime("%Y-%m-%d %H:%M")


# --- identity ------------------------------------------------------------------------------------


def test_with_the_api_key_alone_it_is_sin_identidad(client, clave, escenario):
    error_herramienta(_resumen(client, clave, escenario["s"].numero_radicado), "SIN_IDENTIDAD")


def test_the_tool_is_listed_read_only_for_any_identified_person(client, como):
    cualquiera = UserFactory(permisos=[USAR])
    herramientas = {
        t["name"]: t for t in rpc(client, "tools/list", **como(cualquiera)).resultado["tools"]
    }
    h = herramientas["resumen_solicitud"]
    assert h["annotations"]["readOnlyHint"] is True
    assert h["outputSchema"] == registro.obtener("resumen_solicitud").esquema_salida
    propiedades = h["inputSchema"]["properties"]
    assert h["inputSchema"]["required"] == ["numero_radicado"]
    assert (propiedades["max_eventos"]["minimum"], propiedades["max_eventos"]["maximum"]) == (1, 30)
    assert propiedades["max_eventos"]["default"] == 10
    assert propiedades["incluir_comentarios"]["default"] is False
    assert propiedades["incluir_contenido"]["default"] is False


# --- the full answer ------------------------------------------------------------------------------


def test_the_owner_gets_status_progress_next_responsible_and_history(client, como, escenario):
    s = escenario["s"]
    r = _resumen(client, como(escenario["dueno"]), s.numero_radicado)
    datos = _valida(r)
    assert set(datos) == BASICOS  # no comments nor content unless asked
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    assert {k: v for k, v in datos.items() if k not in ("historial", "fecha_actualizacion")} == {
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": f"/solicitudes/{s.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{s.pk}",
        "tipo": "Certificado RS",
        "estado": "en_tramite",
        "estado_visible": "En trámite",
        "etapa_actual": "Etapa 2 de Certificado RS",
        "resumen": "Certificado para el banco",  # invisible characters removed
        "solicitante": "Ana Dueña",
        "area": "Talento Humano RS",
        "fecha_radicacion": _local(s.fecha_radicacion),
        "fecha_cierre": None,
        "radicado_padre": None,
        "radicados_hijos": [],
        "progreso": {
            "etapa_orden": 2,
            "etapas_completadas": 1,
            "total_etapas": 3,
            "porcentaje": 33,
        },
        "proximo_responsable": {
            "rol": "Rol RS 2",
            "persona": None,
            "desde": _local(tarea.recibida_en),
            "vence_en": _local(tarea.vence_en),
            "vencida": False,
        },
        "total_eventos": 2,
    }
    assert FECHA.match(datos["fecha_actualizacion"])
    assert [e["accion"] for e in datos["historial"]] == ["Radicada", "Avanzó de etapa"]
    radicada = datos["historial"][0]
    assert set(radicada) == {"fecha", "actor", "accion", "descripcion"}
    assert radicada["actor"] == "Ana Dueña"
    assert s.numero_radicado in radicada["descripcion"]
    assert FECHA.match(radicada["fecha"])
    texto = r.resultado["content"][0]["text"]
    assert s.numero_radicado in texto and "En trámite" in texto
    assert "bandeja común de Rol RS 2" in texto


def test_an_assigned_task_names_the_person_and_an_overdue_one_says_so(client, como, escenario):
    s = escenario["s"]
    revisor = escenario["revisores"][1]
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    services.asignar(tarea=tarea, usuario=revisor, actor=revisor)
    Tarea.objects.filter(pk=tarea.pk).update(vence_en=timezone.now() - timedelta(hours=1))
    r = _resumen(client, como(escenario["dueno"]), s.numero_radicado)
    responsable = _valida(r)["proximo_responsable"]
    assert responsable["persona"] == revisor.nombre_visible
    assert responsable["rol"] == "Rol RS 2"
    assert responsable["vencida"] is True
    assert "VENCIDA" in r.resultado["content"][0]["text"]


def test_a_returned_request_is_with_the_filer(client, como, escenario):
    s = services.devolver(
        solicitud=escenario["s"], actor=escenario["revisores"][1], motivo="Falta el soporte"
    )
    datos = _valida(_resumen(client, como(escenario["dueno"]), s.numero_radicado))
    assert datos["estado"] == "devuelto"
    assert datos["proximo_responsable"]["rol"] == "Solicitante"
    assert datos["proximo_responsable"]["persona"] == "Ana Dueña"
    assert "Falta el soporte" in datos["historial"][-1]["descripcion"]


def test_an_approved_request_has_no_next_responsible_and_full_progress(client, como, escenario):
    s = services.avanzar(solicitud=escenario["s"], actor=escenario["revisores"][1])
    s = services.avanzar(solicitud=s, actor=escenario["revisores"][2])
    r = _resumen(client, como(escenario["dueno"]), s.numero_radicado)
    datos = _valida(r)
    assert datos["estado"] == "aprobado"
    assert datos["etapa_actual"] == "Finalizada"
    assert datos["proximo_responsable"] is None
    assert datos["progreso"] == {
        "etapa_orden": None,
        "etapas_completadas": 3,
        "total_etapas": 3,
        "porcentaje": 100,
    }
    assert FECHA.match(datos["fecha_cierre"])
    assert "nadie tiene acciones pendientes" in r.resultado["content"][0]["text"]


def test_an_outside_filer_is_named_never_by_email(client, como, escenario):
    externa = services.radicar(
        tipo=escenario["tipo"],
        nombre_solicitante="Ciudadana Pérez",
        correo_solicitante="ciudadana@correo.example",
        resumen="Consulta de un ciudadano",
    )
    supervisora = UserFactory(permisos=[USAR, "solicitudes.ver_todas"])
    r = _resumen(client, como(supervisora), externa.numero_radicado)
    datos = _valida(r)
    assert datos["solicitante"] == "Ciudadana Pérez"
    assert "ciudadana@correo.example" not in json.dumps(r.resultado)


def test_parent_and_children_are_listed(client, como, escenario):
    s = escenario["s"]
    hija = services.radicar(
        tipo=escenario["tipo"], solicitante=escenario["dueno"], resumen="Anexo", padre=s
    )
    cabeceras = como(escenario["dueno"])
    assert _valida(_resumen(client, cabeceras, s.numero_radicado))["radicados_hijos"] == [
        hija.numero_radicado
    ]
    assert (
        _valida(_resumen(client, cabeceras, hija.numero_radicado))["radicado_padre"]
        == s.numero_radicado
    )


# --- visibility from three sides ---------------------------------------------------------------


def test_a_colleague_with_ver_todas_gets_the_summary(client, como, escenario):
    supervisora = UserFactory(permisos=[USAR, "solicitudes.ver_todas"])
    datos = _valida(_resumen(client, como(supervisora), escenario["s"].numero_radicado))
    assert datos["id_solicitud"] == escenario["s"].pk


def test_a_reviewer_who_acted_and_the_role_now_holding_it_get_the_summary(client, como, escenario):
    numero = escenario["s"].numero_radicado
    for revisor in escenario["revisores"][:2]:
        assert _valida(_resumen(client, como(revisor), numero))["numero_radicado"] == numero


def test_a_role_member_without_request_permissions_still_sees_their_inbox_request(
    client, como, escenario
):
    # Any identified person may use the tool; visibility decides what they see.
    solo_rol = persona(escenario["roles"][1], permisos=[USAR])
    assert _valida(_resumen(client, como(solo_rol), escenario["s"].numero_radicado))


def test_an_outsider_gets_the_same_answer_as_for_a_missing_request(client, como, escenario):
    cabeceras = como(UserFactory(permisos=[USAR, "solicitudes.bandeja.ver"]))
    ajena = no_encontrado_igual(
        lambda numero: _resumen(client, cabeceras, numero),
        escenario["s"].numero_radicado,
        "SOL-1999-000001",
    )
    assert ajena["encontrado"] is False


def test_the_third_reviewer_has_no_access_yet(client, como, escenario):
    tercero = escenario["revisores"][2]
    error_herramienta(
        _resumen(client, como(tercero), escenario["s"].numero_radicado), "NO_ENCONTRADO"
    )


# --- optional parts -------------------------------------------------------------------------------


def test_incluir_comentarios_adds_the_latest_five_trimmed(client, como, escenario):
    s = escenario["s"]
    dueno = escenario["dueno"]
    for i in range(6):
        services.comentar(solicitud=s, autor=dueno, texto=f"Mensaje {i}")
    services.comentar(solicitud=s, autor=dueno, texto="Largo\u200b " + "x" * 400)
    r = _resumen(client, como(dueno), s.numero_radicado, incluir_comentarios=True)
    datos = _valida(r)
    assert set(datos) == BASICOS | {"comentarios"}
    comentarios = datos["comentarios"]
    assert [c["texto"] for c in comentarios[:4]] == [f"Mensaje {i}" for i in (2, 3, 4, 5)]
    ultimo = comentarios[-1]
    assert set(ultimo) == {"autor", "fecha", "texto"}
    assert ultimo["autor"] == "Ana Dueña"
    assert len(ultimo["texto"]) == 300 and ultimo["texto"].endswith("…")
    assert ultimo["texto"].startswith("Largo x")
    assert FECHA.match(ultimo["fecha"])
    assert "Comentarios recientes: 5" in r.resultado["content"][0]["text"]


def test_incluir_comentarios_on_a_quiet_request_is_an_empty_list(client, como, escenario):
    Comentario.objects.all().delete()
    datos = _valida(
        _resumen(
            client,
            como(escenario["dueno"]),
            escenario["s"].numero_radicado,
            incluir_comentarios=True,
        )
    )
    assert datos["comentarios"] == []


def test_incluir_contenido_adds_only_non_sensitive_fields(client, como, escenario):
    r = _resumen(
        client, como(escenario["dueno"]), escenario["s"].numero_radicado, incluir_contenido=True
    )
    datos = _valida(r)
    assert set(datos) == BASICOS | {"contenido"}
    assert datos["contenido"] == [
        {"nombre": "motivo", "etiqueta": "Motivo", "valor": "Trámite de crédito hipotecario"},
        {"nombre": "destino", "etiqueta": "Dirigido a", "valor": "Banco de Bogotá"},
    ]
    texto = json.dumps(r.resultado, ensure_ascii=False)
    for secreto in ("1020304050", "3001234567", "ana@correo.co"):
        assert secreto not in texto


def test_a_value_edited_later_into_an_email_is_still_left_out(client, como, escenario):
    CampoFormulario.objects.filter(nombre="destino").update(valor="otro@correo.co")
    datos = _valida(
        _resumen(
            client, como(escenario["dueno"]), escenario["s"].numero_radicado, incluir_contenido=True
        )
    )
    assert [c["nombre"] for c in datos["contenido"]] == ["motivo"]


def test_a_numbered_contact_field_stored_unmarked_is_left_out(client, como, escenario):
    # A row saved before the rule knew numbered names: the door check catches it.
    CampoFormulario.objects.create(
        solicitud=escenario["s"],
        orden=9,
        nombre="telefono2",
        etiqueta="Otro teléfono",
        valor="3157654321",
        sensible=False,
    )
    r = _resumen(
        client, como(escenario["dueno"]), escenario["s"].numero_radicado, incluir_contenido=True
    )
    assert [c["nombre"] for c in _valida(r)["contenido"]] == ["motivo", "destino"]
    assert "3157654321" not in json.dumps(r.resultado, ensure_ascii=False)


def test_max_eventos_keeps_the_latest_events_oldest_first(client, como, escenario):
    s = escenario["s"]
    revisor = escenario["revisores"][1]
    services.asignar(
        tarea=Tarea.objects.pendientes().get(solicitud=s), usuario=revisor, actor=revisor
    )
    services.marcar_atencion(solicitud=s, actor=revisor, motivo="Revisar presupuesto")
    cabeceras = como(escenario["dueno"])
    datos = _valida(_resumen(client, cabeceras, s.numero_radicado, max_eventos=2))
    assert datos["total_eventos"] == 4
    assert [e["accion"] for e in datos["historial"]] == ["Tarea asignada", "Marcada para atención"]
    uno = _valida(_resumen(client, cabeceras, s.numero_radicado, max_eventos=1))
    assert [e["accion"] for e in uno["historial"]] == ["Marcada para atención"]


def test_max_eventos_defaults_to_ten(client, como, escenario):
    s = escenario["s"]
    revisor = escenario["revisores"][1]
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    for _ in range(10):
        services.asignar(tarea=tarea, usuario=revisor, actor=revisor)
    datos = _valida(_resumen(client, como(escenario["dueno"]), s.numero_radicado))
    assert datos["total_eventos"] == 12
    assert len(datos["historial"]) == 10
    assert datos["historial"][0]["accion"] == "Tarea asignada"  # the two oldest left out
    thirty = _valida(_resumen(client, como(escenario["dueno"]), s.numero_radicado, max_eventos=30))
    assert len(thirty["historial"]) == 12


# --- argument bounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({"numero_radicado": "ab"}, "numero_radicado"),
        ({"numero_radicado": "x" * 61}, "numero_radicado"),
        ({"max_eventos": 0}, "max_eventos"),
        ({"max_eventos": 31}, "max_eventos"),
        ({"incluir_comentarios": "tal vez"}, "incluir_comentarios"),
        ({"incluir_contenido": "tal vez"}, "incluir_contenido"),
        ({"usuario": "otra"}, "usuario"),
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como, escenario, argumentos, campo):
    llamada = {"numero_radicado": escenario["s"].numero_radicado, **argumentos}
    r = llamar(client, "resumen_solicitud", llamada, **como(escenario["dueno"]))
    assert campo in error_herramienta(r, "DATOS_INVALIDOS")["campos"]


def test_the_number_is_required(client, como, escenario):
    r = llamar(client, "resumen_solicitud", {}, **como(escenario["dueno"]))
    assert "numero_radicado" in error_herramienta(r, "DATOS_INVALIDOS")["campos"]


@pytest.mark.parametrize("numero", ["abc", "S" * 60])
def test_numbers_at_the_length_bounds_are_looked_up(client, como, escenario, numero):
    error_herramienta(_resumen(client, como(escenario["dueno"]), numero), "NO_ENCONTRADO")


def test_the_number_is_matched_ignoring_case_and_spaces(client, como, escenario):
    numero = escenario["s"].numero_radicado
    datos = _valida(_resumen(client, como(escenario["dueno"]), f" {numero.lower()} "))
    assert datos["numero_radicado"] == numero


# --- cost ---------------------------------------------------------------------------------------


def test_the_cost_does_not_grow_with_history_comments_fields_or_children(
    client, como, escenario, django_assert_num_queries
):
    s = escenario["s"]
    dueno = escenario["dueno"]
    cabeceras = como(dueno)
    argumentos = {"incluir_comentarios": True, "incluir_contenido": True, "max_eventos": 30}
    _resumen(client, cabeceras, s.numero_radicado, **argumentos)
    with CaptureQueriesContext(connection) as antes:
        _valida(_resumen(client, cabeceras, s.numero_radicado, **argumentos))
    revisor = escenario["revisores"][1]
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    for i in range(4):
        services.asignar(tarea=tarea, usuario=revisor, actor=revisor)
        services.comentar(solicitud=s, autor=dueno, texto=f"Seguimiento {i}")
        services.radicar(tipo=escenario["tipo"], solicitante=dueno, resumen=f"Hija {i}", padre=s)
    CampoFormulario.objects.create(
        solicitud=s, orden=9, nombre="extra", etiqueta="Extra", valor="Sí"
    )
    with django_assert_num_queries(len(antes.captured_queries)):
        datos = _valida(_resumen(client, cabeceras, s.numero_radicado, **argumentos))
    assert len(datos["radicados_hijos"]) == 4
    assert datos["total_eventos"] == 6
    assert len(datos["contenido"]) == 3
