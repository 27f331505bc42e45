"""The request page acts: each action through its service, offered only to whom the service
allows it (holder, a colleague of the role while the task is unassigned), refused to the rest;
rejecting and annulling ask for confirmation first."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from apps.solicitudes import services
from apps.solicitudes.models import Comentario, Evento, Solicitud, Tarea
from tests.factories import dar_permisos
from tests.solicitudes.factories import lo_que_envia, persona

pytestmark = pytest.mark.django_db

MOTIVO = "Falta el soporte de la cuenta bancaria"
# slug -> (what the page offers for it, the POST data, the state after it)
ACCIONES = {
    "tomar": ("Tomar la tarea", {}, "radicado"),
    "avanzar": ("Completar la etapa y pasar a «Etapa 2", {}, "en_tramite"),
    "aprobar": ("Aprobar la solicitud", {}, "aprobado"),
    "devolver": ("Devolver al solicitante", {"motivo": MOTIVO}, "devuelto"),
    "atencion": ("Marcar para atención", {"motivo": MOTIVO}, "requiere_atencion"),
    "reanudar": ("Reanudar el trámite", {}, "en_tramite"),
    "rechazar": ("Rechazar…", {"motivo": MOTIVO, "confirmar": "si"}, "rechazado"),
    "anular": ("Anular…", {"motivo": MOTIVO, "confirmar": "si"}, "anulado"),
    "comentar": ("Publicar el comentario", {"texto": "Revisé los soportes."}, "radicado"),
}
DE_ETAPA = ["avanzar", "aprobar", "devolver", "atencion", "reanudar", "rechazar"]


def _plano(r) -> str:
    """What a person reads: no tags, one space between words."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.content.decode())).split())


def _preparar(flujo, accion: str) -> tuple[Solicitud, int]:
    """A request where `accion` may start, with its stage task unassigned; the stage's index."""
    if accion == "aprobar":  # the last stage, here without a signature (signing: its own page)
        flujo.sin_firma()
    s = flujo.radicar()
    if accion == "aprobar":
        s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
        s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
        return s, 2
    if accion == "reanudar":
        s = services.marcar_atencion(solicitud=s, actor=flujo.responsables[0], motivo="Revisar")
        Tarea.objects.filter(solicitud=s).update(asignada_a=None)
    return s, 0


def _actor(flujo, s: Solicitud, etapa: int, papel: str):
    """The person of `papel` for this request (assigning the task when the role needs it)."""
    rol, titular = flujo.roles[etapa], flujo.responsables[etapa]
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    if papel == "titular":
        services.asignar(tarea=tarea, usuario=titular, actor=titular)
        return titular
    if papel == "colega_sin_asignar":
        return persona(rol)
    if papel == "colega_con_asignada":
        services.asignar(tarea=tarea, usuario=titular, actor=titular)
        return persona(rol)
    return persona()  # ajeno


def _foto(s: Solicitud) -> tuple:
    """What an action changes: state, stage, the task's holder, events and comments."""
    s.refresh_from_db()
    tareas = list(Tarea.objects.filter(solicitud=s).values_list("pk", "asignada_a_id"))
    return (
        s.estado,
        s.etapa_actual_id,
        tareas,
        Evento.objects.filter(solicitud=s).count(),
        Comentario.objects.filter(solicitud=s).count(),
    )


@pytest.mark.parametrize("papel", ["titular", "colega_sin_asignar"])
@pytest.mark.parametrize("accion", list(ACCIONES))
def test_whoever_the_service_allows_sees_the_action_and_it_runs(client, flujo, accion, papel):
    s, etapa = _preparar(flujo, accion)
    actor = _actor(flujo, s, etapa, papel)
    client.force_login(actor)
    oferta, datos, estado = ACCIONES[accion]
    pagina = client.get(s.enlace)
    assert pagina.status_code == 200
    if accion == "tomar" and papel == "titular":
        assert oferta not in _plano(pagina)  # one does not take what one holds
        return
    assert oferta in _plano(pagina)
    r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s, datos))
    assert r.status_code == 302
    destino = s.enlace + ("#comentarios" if accion == "comentar" else "")
    assert r["Location"] == destino
    s.refresh_from_db()
    assert s.estado == estado
    if accion == "tomar":
        assert Tarea.objects.pendientes().get(solicitud=s).asignada_a == actor
    if accion == "comentar":
        assert Comentario.objects.get(solicitud=s).texto == "Revisé los soportes."
    siguiente = client.get(s.enlace)
    assert siguiente.status_code == 200
    aviso = re.search(r'<p class="aviso-ok" role="status">([^<]+)</p>', siguiente.content.decode())
    assert aviso is not None and aviso.group(1)


@pytest.mark.parametrize("papel", ["colega_con_asignada", "ajeno"])
@pytest.mark.parametrize("accion", list(ACCIONES))
def test_whoever_cannot_see_the_request_gets_404_and_nothing_changes(client, flujo, accion, papel):
    s, etapa = _preparar(flujo, accion)
    client.force_login(_actor(flujo, s, etapa, papel))
    antes = _foto(s)
    assert client.get(s.enlace).status_code == 404
    _, datos, _ = ACCIONES[accion]
    assert client.post(f"{s.enlace}/{accion}", lo_que_envia(s, datos)).status_code == 404
    assert _foto(s) == antes


@pytest.mark.parametrize("accion", DE_ETAPA)
def test_the_filer_sees_only_comment_and_annul_and_the_service_refuses_the_rest(
    client, flujo, accion
):
    s, _ = _preparar(flujo, accion)
    client.force_login(flujo.solicitante)
    pagina = _plano(client.get(s.enlace))
    assert "Publicar el comentario" in pagina and "Anular…" in pagina
    for clave, (oferta, _, _) in ACCIONES.items():
        if clave not in ("comentar", "anular"):
            assert oferta not in pagina, clave
    antes = _foto(s)
    r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s, ACCIONES[accion][1]))
    assert r.status_code == 403
    assert "Solo quien tiene la tarea de la etapa actual" in _plano(r)
    assert _foto(s) == antes


def test_a_colleague_who_sees_an_assigned_task_is_offered_no_move_and_cannot_take_it(client, flujo):
    s, _ = _preparar(flujo, "avanzar")
    colega = _actor(flujo, s, 0, "colega_con_asignada")
    dar_permisos(colega, "solicitudes.ver_todas")
    client.force_login(colega)
    pagina = _plano(client.get(s.enlace))
    assert "Qué puede hacer" not in pagina
    for clave, (oferta, _, _) in ACCIONES.items():
        if clave != "comentar":
            assert oferta not in pagina, clave
    antes = _foto(s)
    assert client.post(f"{s.enlace}/avanzar", lo_que_envia(s)).status_code == 403
    r = client.post(f"{s.enlace}/tomar", lo_que_envia(s))
    assert r.status_code == 403
    assert "La tarea ya está asignada: solo quien la tiene puede pasarla" in _plano(r)
    assert _foto(s) == antes


def test_a_move_the_state_does_not_allow_is_409_with_the_reason(client, flujo):
    s, _ = _preparar(flujo, "avanzar")
    client.force_login(_actor(flujo, s, 0, "titular"))
    assert "Reanudar el trámite" not in _plano(client.get(s.enlace))
    antes = _foto(s)
    r = client.post(f"{s.enlace}/reanudar", lo_que_envia(s))
    assert r.status_code == 409
    assert "No se puede reanudar una solicitud en estado «Radicado»." in _plano(r)
    assert _foto(s) == antes


def test_a_return_without_a_reason_is_422_and_keeps_what_was_typed(client, flujo):
    s, _ = _preparar(flujo, "devolver")
    client.force_login(_actor(flujo, s, 0, "titular"))
    antes = _foto(s)
    r = client.post(f"{s.enlace}/devolver", lo_que_envia(s, {"motivo": "ab"}))
    assert r.status_code == 422
    texto = r.content.decode()
    assert "<details open>" in texto
    assert '<textarea id="motivo-devolver" name="motivo"' in texto and ">ab</textarea>" in texto
    assert _foto(s) == antes


@pytest.mark.parametrize("accion", ["rechazar", "anular"])
def test_rejecting_and_annulling_ask_for_confirmation_first(client, flujo, accion):
    s, _ = _preparar(flujo, accion)
    client.force_login(_actor(flujo, s, 0, "titular"))
    antes = _foto(s)
    verbo = "Rechazar" if accion == "rechazar" else "Anular"
    confirmacion = client.get(f"{s.enlace}/{accion}")
    assert confirmacion.status_code == 200
    texto = _plano(confirmacion)
    assert f"¿{verbo} la solicitud {s.numero_visible}?" in texto
    assert f"Sí, {verbo.lower()} la solicitud" in texto and "No, volver a la solicitud" in texto
    assert 'name="confirmar" value="si"' in confirmacion.content.decode()
    # A POST without the confirmation only shows the page again, with the reason kept.
    r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s, {"motivo": MOTIVO}))
    assert r.status_code == 200 and f">{MOTIVO}</textarea>" in r.content.decode()
    assert _foto(s) == antes
    r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s, {"motivo": "", "confirmar": "si"}))
    assert r.status_code == 422
    assert f"¿{verbo} la solicitud" in _plano(r)
    assert _foto(s) == antes
    r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s, {"motivo": MOTIVO, "confirmar": "si"}))
    assert r.status_code == 302
    s.refresh_from_db()
    assert s.estado == ACCIONES[accion][2]
    assert MOTIVO in Evento.objects.filter(solicitud=s).latest("pk").descripcion


def test_the_confirmation_page_is_refused_to_whom_may_not_reject(client, flujo):
    s, _ = _preparar(flujo, "rechazar")
    client.force_login(flujo.solicitante)
    r = client.get(f"{s.enlace}/rechazar")
    assert r.status_code == 403
    assert "Usted no puede hacer esto con la solicitud en este momento." in _plano(r)


def test_an_action_without_its_csrf_token_is_refused(flujo):
    s, _ = _preparar(flujo, "avanzar")
    cliente = Client(enforce_csrf_checks=True)
    cliente.force_login(_actor(flujo, s, 0, "titular"))
    antes = _foto(s)
    r = cliente.post(f"{s.enlace}/avanzar", lo_que_envia(s))
    assert r.status_code == 403
    assert "El formulario venció" in _plano(r)
    assert _foto(s) == antes
    assert 'name="csrfmiddlewaretoken"' in cliente.get(s.enlace).content.decode()


def test_actions_are_posts_and_unknown_ones_do_not_exist(client, flujo):
    s, _ = _preparar(flujo, "avanzar")
    client.force_login(_actor(flujo, s, 0, "titular"))
    assert client.get(f"{s.enlace}/avanzar").status_code == 405
    assert client.post(f"{s.enlace}/borrar", lo_que_envia(s)).status_code == 404
    client.logout()
    r = client.post(f"{s.enlace}/avanzar", lo_que_envia(s))
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/")
