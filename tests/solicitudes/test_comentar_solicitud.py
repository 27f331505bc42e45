"""comentar_solicitud: a two-step write. The preview names the request, its state and the text;
the confirmation publishes the message in the caller's name, once, only with access, only for
the previewed arguments, only while writes are enabled and within the per-minute limit."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria
from apps.solicitudes import selectors, services
from apps.solicitudes.models import Comentario, Evento, Solicitud, Tarea
from hub.herramientas.registro import registro
from tests.busqueda import REFERENCIA_SOLICITUD
from tests.factories import GroupFactory, UserFactory
from tests.mcp_cliente import (
    ajustar,
    error_herramienta,
    llamar,
    no_encontrado_igual,
    rpc,
    validador,
)
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
TEXTO = "¿Pueden confirmar si falta algún soporte?"
PREVIA = REFERENCIA_SOLICITUD | {
    "autor",
    "comentario",
    "requiere_confirmacion",
    "token_confirmacion",
    "vence_en",
}
PUBLICADO = {
    "publicado",
    "comentario_id",
    "numero_radicado",
    "id_solicitud",
    "enlace",
    "url",
    "autor",
    "fecha",
    "comentario",
}


@pytest.fixture
def escenario():
    revision, firma = GroupFactory(name="Revisión CS"), GroupFactory(name="Firma CS")
    tipo = tipo_con_etapas(revision, firma, nombre="Certificado CS")
    dueno = persona(
        permisos=["solicitudes.radicar", USAR], first_name="Ana", last_name="Dueña", username="ana"
    )
    revisora = persona(revision, permisos=["solicitudes.bandeja.ver", USAR], first_name="Rita")
    s = services.radicar(tipo=tipo, solicitante=dueno, resumen="Certificado para el banco")
    return {"tipo": tipo, "dueno": dueno, "revisora": revisora, "revision": revision, "s": s}


def _llamar(client, cabeceras, numero, comentario=TEXTO, **extra):
    argumentos = {"numero_radicado": numero, "comentario": comentario, **extra}
    return llamar(client, "comentar_solicitud", argumentos, **cabeceras)


_valida = validador("comentar_solicitud")


def _token(client, cabeceras, numero, comentario=TEXTO) -> str:
    return _valida(_llamar(client, cabeceras, numero, comentario))["token_confirmacion"]


def _confirmar(client, cabeceras, numero, token, comentario=TEXTO):
    return _llamar(client, cabeceras, numero, comentario, confirmar=True, token_confirmacion=token)


def _publicar(client, cabeceras, numero, comentario=TEXTO):
    return _confirmar(
        client, cabeceras, numero, _token(client, cabeceras, numero, comentario), comentario
    )


# --- the two steps --------------------------------------------------------------------------------


def test_the_preview_names_request_state_author_and_text_and_writes_nothing(
    client, como, escenario
):
    s = escenario["s"]
    r = _llamar(client, como(escenario["dueno"]), s.numero_radicado, f"  {TEXTO}\u200b  ")
    datos = _valida(r)
    assert set(datos) == PREVIA
    assert {k: datos[k] for k in PREVIA - {"token_confirmacion", "vence_en"}} == {
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": f"/solicitudes/{s.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{s.pk}",
        "tipo": "Certificado CS",
        "estado": "radicado",
        "autor": "Ana Dueña",
        "comentario": TEXTO,  # trimmed, invisible characters removed
        "requiere_confirmacion": True,
    }
    assert isinstance(datos["token_confirmacion"], str) and len(datos["token_confirmacion"]) <= 600
    assert FECHA.match(datos["vence_en"])
    texto = r.resultado["content"][0]["text"]
    assert s.numero_radicado in texto and "Radicado" in texto and TEXTO in texto
    assert "confirmar=true" in texto
    assert Comentario.objects.count() == 0
    assert ConfirmacionUsada.objects.count() == 0


def test_the_confirmation_publishes_the_comment_in_the_persons_name(client, como, escenario):
    s = escenario["s"]
    dueno = escenario["dueno"]
    eventos = Evento.objects.filter(solicitud=s).count()
    r = _publicar(client, como(dueno), s.numero_radicado)
    datos = _valida(r)
    comentario = Comentario.objects.get()
    assert set(datos) == PUBLICADO
    assert datos == {
        "publicado": True,
        "comentario_id": comentario.pk,
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": f"/solicitudes/{s.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{s.pk}",
        "autor": "Ana Dueña",
        "fecha": datos["fecha"],
        "comentario": TEXTO,
    }
    assert FECHA.match(datos["fecha"])
    assert (comentario.solicitud_id, comentario.autor_id, comentario.texto) == (
        s.pk,
        dueno.pk,
        TEXTO,
    )
    texto = r.resultado["content"][0]["text"]
    assert "Comentario publicado" in texto and s.numero_radicado in texto
    # Only a message: the state and the history are untouched; the activity date moves.
    s2 = Solicitud.objects.get(pk=s.pk)
    assert s2.estado == "radicado" and s2.etapa_actual_id == s.etapa_actual_id
    assert Evento.objects.filter(solicitud=s).count() == eventos
    assert s2.fecha_actualizacion >= comentario.creado_en


def test_the_participants_see_the_published_comment(client, como, escenario):
    s = escenario["s"]
    _valida(_publicar(client, como(escenario["revisora"]), s.numero_radicado))
    [comentario] = selectors.ultimos_comentarios(s)
    assert comentario.autor == escenario["revisora"]
    r = llamar(
        client,
        "resumen_solicitud",
        {"numero_radicado": s.numero_radicado, "incluir_comentarios": True},
        **como(escenario["dueno"]),
    )
    assert r.estructura["comentarios"][0]["texto"] == TEXTO
    assert r.estructura["comentarios"][0]["autor"] == escenario["revisora"].nombre_visible


# --- identity, permission and access --------------------------------------------------------------


def test_with_the_api_key_alone_it_is_sin_identidad(client, clave, escenario):
    error_herramienta(_llamar(client, clave, escenario["s"].numero_radicado), "SIN_IDENTIDAD")


def test_the_api_key_alone_cannot_confirm_a_persons_preview_even_if_listed_public(
    client, clave, como, escenario
):
    """A write never runs without a person: not even a key-only call holding a person's token
    for that key, with the write tool wrongly listed among the public ones."""
    numero = escenario["s"].numero_radicado
    token = _token(client, como(escenario["dueno"]), numero)
    ajustar(herramientas_publicas=["comentar_solicitud"])
    error_herramienta(_confirmar(client, clave, numero, token), "SIN_IDENTIDAD")
    assert not Comentario.objects.exists()
    assert not ConfirmacionUsada.objects.exists()


def test_a_person_without_request_permissions_gets_sin_permiso(client, como, escenario):
    # In the role of the pending task (so able to see it) but without any request permission.
    solo_rol = persona(escenario["revision"], permisos=[USAR])
    error_herramienta(
        _llamar(client, como(solo_rol), escenario["s"].numero_radicado), "SIN_PERMISO"
    )
    assert Comentario.objects.count() == 0


@pytest.mark.parametrize(
    "permiso", ["solicitudes.bandeja.ver", "solicitudes.radicar", "solicitudes.ver_todas"]
)
def test_any_of_the_three_permissions_lists_the_tool_as_a_write(client, como, permiso):
    cabeceras = como(UserFactory(permisos=[USAR, permiso]))
    herramientas = {t["name"]: t for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    h = herramientas["comentar_solicitud"]
    assert h["annotations"]["readOnlyHint"] is False
    assert h["annotations"]["destructiveHint"] is False
    assert h["annotations"]["idempotentHint"] is False
    assert h["outputSchema"] == registro.obtener("comentar_solicitud").esquema_salida
    propiedades = h["inputSchema"]["properties"]
    assert set(propiedades) == {"numero_radicado", "comentario", "confirmar", "token_confirmacion"}
    assert propiedades["confirmar"]["default"] is False
    assert propiedades["token_confirmacion"]["maxLength"] == 600
    assert h["inputSchema"]["required"] == ["numero_radicado", "comentario"]


def test_a_colleague_with_ver_todas_may_comment(client, como, escenario):
    supervisora = UserFactory(permisos=[USAR, "solicitudes.ver_todas"])
    _valida(_publicar(client, como(supervisora), escenario["s"].numero_radicado))
    assert Comentario.objects.get().autor == supervisora


def test_the_task_holder_may_comment(client, como, escenario):
    _valida(_publicar(client, como(escenario["revisora"]), escenario["s"].numero_radicado))
    assert Comentario.objects.get().autor == escenario["revisora"]


def test_an_outsider_gets_the_same_answer_as_for_a_missing_request(client, como, escenario):
    cabeceras = como(UserFactory(permisos=[USAR, "solicitudes.bandeja.ver"]))
    no_encontrado_igual(
        lambda numero: _llamar(client, cabeceras, numero),
        escenario["s"].numero_radicado,
        "SOL-1999-000001",
    )
    assert Comentario.objects.count() == 0


def test_access_lost_between_the_steps_writes_nothing(client, como, escenario):
    s = escenario["s"]
    cabeceras = como(escenario["revisora"])
    token = _token(client, cabeceras, s.numero_radicado)
    # A colleague of the role completes the task: the common-inbox access ends.
    colega = persona(escenario["revision"], permisos=["solicitudes.bandeja.ver"])
    services.avanzar(solicitud=s, actor=colega)
    error_herramienta(_confirmar(client, cabeceras, s.numero_radicado, token), "NO_ENCONTRADO")
    assert Comentario.objects.count() == 0
    assert ConfirmacionUsada.objects.count() == 0


# --- the confirmation rules -----------------------------------------------------------------------


def test_a_reused_token_is_refused_and_publishes_nothing_more(client, como, escenario):
    s = escenario["s"]
    cabeceras = como(escenario["dueno"])
    token = _token(client, cabeceras, s.numero_radicado)
    _valida(_confirmar(client, cabeceras, s.numero_radicado, token))
    error_herramienta(_confirmar(client, cabeceras, s.numero_radicado, token), "CONFIRMACION_USADA")
    assert Comentario.objects.count() == 1


@pytest.mark.parametrize("cambio", ["comentario", "numero_radicado"])
def test_arguments_changed_after_the_preview_write_nothing(client, como, escenario, cambio):
    s = escenario["s"]
    otra = services.radicar(
        tipo=escenario["tipo"], solicitante=escenario["dueno"], resumen="Otra solicitud"
    )
    cabeceras = como(escenario["dueno"])
    token = _token(client, cabeceras, s.numero_radicado)
    numero = otra.numero_radicado if cambio == "numero_radicado" else s.numero_radicado
    texto = "Otro texto distinto" if cambio == "comentario" else TEXTO
    error_herramienta(
        _confirmar(client, cabeceras, numero, token, texto), "CONFIRMACION_NO_COINCIDE"
    )
    assert Comentario.objects.count() == 0


def test_confirmar_without_the_token_is_datos_invalidos(client, como, escenario):
    r = _llamar(client, como(escenario["dueno"]), escenario["s"].numero_radicado, confirmar=True)
    assert set(error_herramienta(r, "DATOS_INVALIDOS")["campos"]) == {"token_confirmacion"}
    assert Comentario.objects.count() == 0


def test_with_writes_disabled_it_is_escritura_deshabilitada(client, como, escenario):
    s = escenario["s"]
    cabeceras = como(escenario["dueno"])
    token = _token(client, cabeceras, s.numero_radicado)
    ajustar(escrituras_habilitadas=False)
    error_herramienta(_llamar(client, cabeceras, s.numero_radicado), "ESCRITURA_DESHABILITADA")
    error_herramienta(
        _confirmar(client, cabeceras, s.numero_radicado, token), "ESCRITURA_DESHABILITADA"
    )
    assert Comentario.objects.count() == 0
    nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
    assert "comentar_solicitud" not in nombres


def test_the_seventh_confirmed_write_in_a_minute_is_rate_limit(client, como, escenario):
    s = escenario["s"]
    cabeceras = como(escenario["dueno"])
    for i in range(6):
        _valida(_publicar(client, cabeceras, s.numero_radicado, f"Mensaje número {i}"))
    r = _publicar(client, cabeceras, s.numero_radicado, "Mensaje número 7")
    assert error_herramienta(r, "RATE_LIMIT")["reintentar_en"] >= 1
    assert Comentario.objects.count() == 6
    # Previews are not writes: still answered.
    _valida(_llamar(client, cabeceras, s.numero_radicado, "Mensaje número 8"))


# --- argument bounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({"numero_radicado": "ab"}, "numero_radicado"),
        ({"numero_radicado": "x" * 61}, "numero_radicado"),
        ({"comentario": "ab"}, "comentario"),
        ({"comentario": "x" * 2001}, "comentario"),
        ({"comentario": "a\u200b\u200bb"}, "comentario"),
        ({"comentario": "   a  "}, "comentario"),
        ({"confirmar": "quizas"}, "confirmar"),
        ({"confirmar": True, "token_confirmacion": "t" * 601}, "token_confirmacion"),
        ({"autor": "otra persona"}, "autor"),
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como, escenario, argumentos, campo):
    base = {"numero_radicado": escenario["s"].numero_radicado, "comentario": TEXTO}
    r = llamar(client, "comentar_solicitud", {**base, **argumentos}, **como(escenario["dueno"]))
    assert campo in error_herramienta(r, "DATOS_INVALIDOS")["campos"]
    assert Comentario.objects.count() == 0


@pytest.mark.parametrize("largo", [3, 2000])
def test_comments_at_the_length_bounds_are_published(client, como, escenario, largo):
    _valida(
        _publicar(client, como(escenario["dueno"]), escenario["s"].numero_radicado, "x" * largo)
    )
    assert len(Comentario.objects.get().texto) == largo


@pytest.mark.parametrize("numero", ["abc", "S" * 60])
def test_numbers_at_the_length_bounds_are_looked_up(client, como, escenario, numero):
    error_herramienta(_llamar(client, como(escenario["dueno"]), numero), "NO_ENCONTRADO")


# --- cost ---------------------------------------------------------------------------------------


def test_the_cost_of_both_steps_does_not_grow_with_the_chat(
    client, como, escenario, django_assert_num_queries
):
    s = escenario["s"]
    dueno = escenario["dueno"]
    cabeceras = como(dueno)
    numero = s.numero_radicado
    _publicar(client, cabeceras, numero, "Calentamiento")
    with CaptureQueriesContext(connection) as previa:
        token = _token(client, cabeceras, numero, "Primera medición")
    with CaptureQueriesContext(connection) as confirmacion:
        _valida(_confirmar(client, cabeceras, numero, token, "Primera medición"))
    for i in range(8):
        services.comentar(solicitud=s, autor=dueno, texto=f"Más conversación {i}")
        services.asignar(
            tarea=Tarea.objects.pendientes().get(solicitud=s),
            usuario=escenario["revisora"],
            actor=escenario["revisora"],
        )
    with django_assert_num_queries(len(previa.captured_queries)):
        token = _token(client, cabeceras, numero, "Segunda medición")
    with django_assert_num_queries(len(confirmacion.captured_queries)):
        _valida(_confirmar(client, cabeceras, numero, token, "Segunda medición"))
    assert Comentario.objects.filter(solicitud=s).count() == 11


def test_a_closed_request_still_accepts_comments_from_its_participants(client, como, escenario):
    s = services.anular(solicitud=escenario["s"], actor=escenario["dueno"], motivo="Ya no aplica")
    datos = _valida(_publicar(client, como(escenario["dueno"]), s.numero_radicado))
    assert Comentario.objects.get().pk == datos["comentario_id"]
    assert Solicitud.objects.get(pk=s.pk).estado == "anulado"


def test_the_audit_row_of_the_confirmation_links_the_comment_and_the_preview_links_nothing(
    client, como, escenario
):
    s = escenario["s"]
    _publicar(client, como(escenario["dueno"]), s.numero_radicado)
    comentario = Comentario.objects.get()
    previa, confirmada = RegistroAuditoria.objects.order_by("pk")
    assert previa.objeto == {}
    assert confirmada.objeto == {
        "tipo": "comentario",
        "texto": f"Comentario en {s.numero_radicado}",
        "enlace": f"/solicitudes/{s.pk}#comentario-{comentario.pk}",
    }
    client.force_login(escenario["dueno"])
    pagina = client.get(f"/solicitudes/{s.pk}")
    assert f'id="comentario-{comentario.pk}"'.encode() in pagina.content  # the link's anchor
