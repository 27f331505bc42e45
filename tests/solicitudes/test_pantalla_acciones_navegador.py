"""The request page's actions in a real browser at 1280 px and on a phone (390 px): take the
task, comment, reject after the confirmation page, return with a reason; screenshots in
var/capturas/ (solicitud_acciones_*, solicitud_confirmar_rechazo_*)."""

from __future__ import annotations

import pytest

from apps.marca import demo as marca_demo
from apps.solicitudes import services
from apps.solicitudes.models import Comentario, Solicitud, Tarea
from hub.operacion.demo import ContextoDemo
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas
from tests.solicitudes.factories import persona
from tests.solicitudes.navegador import ANCHOS, aviso, ingresar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


def _sin_desbordes(pagina, ancho: int) -> None:
    assert ancho_de_pagina(pagina) <= ancho
    assert palabras_partidas(pagina, "main") == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_colleague_takes_the_task_comments_and_rejects_after_confirming(
    flujo, navegador, ancho, alto
):
    marca_demo.cargar(ContextoDemo())
    s = flujo.radicar(resumen="Viáticos de la comisión a Cartagena para la auditoría")
    colega = persona(flujo.roles[0], username="camila", first_name="Camila", last_name="Rojas")
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar(pagina, "camila", s.enlace)

    pagina.get_by_role("button", name="Tomar la tarea").click()
    pagina.wait_for_load_state()
    assert aviso(pagina) == f"La tarea de la solicitud {s.numero_visible} quedó asignada a usted."
    assert Tarea.objects.pendientes().get(solicitud=s).asignada_a_id == colega.pk
    assert pagina.get_by_role("button", name="Tomar la tarea").count() == 0

    pagina.get_by_label("Escriba un comentario").fill("Reviso los soportes hoy mismo.")
    pagina.get_by_role("button", name="Publicar el comentario").click()
    pagina.wait_for_url(f"**{s.enlace}#comentarios")
    assert aviso(pagina) == "Su comentario quedó publicado."
    assert Comentario.objects.get(solicitud=s).texto == "Reviso los soportes hoy mismo."
    assert "Reviso los soportes hoy mismo." in pagina.locator("#comentarios").inner_text()
    for nombre in ("Completar la etapa y pasar a «Etapa 2", "Rechazar…", "Anular…"):
        assert pagina.get_by_text(nombre).first.is_visible(), nombre
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_acciones_{ancho}")

    pagina.get_by_role("link", name="Rechazar…").click()
    pagina.wait_for_url(f"**{s.enlace}/rechazar")
    pregunta = f"¿Rechazar la solicitud {s.numero_visible}?"
    assert pagina.get_by_role("heading", name=pregunta).is_visible()
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_confirmar_rechazo_{ancho}")
    assert Solicitud.objects.get(pk=s.pk).estado == "radicado"  # nothing happened yet
    pagina.get_by_label("Motivo").fill("No adjuntó la resolución de la comisión")
    pagina.get_by_role("button", name="Sí, rechazar la solicitud").click()
    pagina.wait_for_url(pagina.base + s.enlace)
    assert aviso(pagina) == f"La solicitud {s.numero_visible} quedó rechazada."
    assert Solicitud.objects.get(pk=s.pk).estado == "rechazado"
    assert pagina.locator("#acciones").count() == 0  # a closed request offers nothing
    assert "No adjuntó la resolución de la comisión" in pagina.inner_text("main")
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_the_holder_returns_the_request_with_a_reason(flujo, navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    s = flujo.radicar()
    titular = flujo.responsables[0]
    Tarea.objects.filter(solicitud=s).update(asignada_a=titular)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar(pagina, titular.username, s.enlace)
    pagina.get_by_text("Devolver al solicitante para corregir").click()
    pagina.get_by_label("Qué debe corregir").fill("Falta la certificación bancaria")
    pagina.get_by_role("button", name="Devolver al solicitante").click()
    pagina.wait_for_url(pagina.base + s.enlace)
    assert aviso(pagina) == (
        f"La solicitud {s.numero_visible} volvió al solicitante para corregirla."
    )
    assert Solicitud.objects.get(pk=s.pk).estado == "devuelto"
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_devuelta_{ancho}")
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_the_filer_sends_the_correction(flujo, navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    s = flujo.radicar(
        campos=[
            {"nombre": "cargo", "etiqueta": "Cargo", "valor": "Profesional universitario"},
            {"nombre": "banco", "etiqueta": "Entidad de destino", "valor": "Banco Agrario"},
        ]
    )
    s = services.devolver(
        solicitud=s, actor=flujo.responsables[0], motivo="Falta el grado del cargo"
    )
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar(pagina, flujo.solicitante.username, s.enlace)
    assert pagina.get_by_text("Qué pidieron corregir: Falta el grado del cargo").is_visible()
    assert pagina.get_by_label("Cargo").input_value() == "Profesional universitario"
    _sin_desbordes(pagina, ancho)
    pagina.get_by_role("heading", name="Enviar la corrección").scroll_into_view_if_needed()
    capturar(pagina, f"solicitud_correccion_{ancho}")

    pagina.get_by_label("Cargo").fill("Profesional universitario grado 2")
    pagina.get_by_label("Comentario (opcional").fill("Agregué el grado.")
    pagina.get_by_role("button", name="Enviar la corrección").click()
    pagina.wait_for_url(pagina.base + s.enlace)
    assert aviso(pagina) == (
        f"Envió la corrección: la solicitud {s.numero_visible} volvió a su trámite."
    )
    s.refresh_from_db()
    assert s.estado == "en_tramite"
    assert s.campos.get(nombre="cargo").valor == "Profesional universitario grado 2"
    assert pagina.get_by_role("button", name="Enviar la corrección").count() == 0
    assert "Agregué el grado." in pagina.locator("#comentarios").inner_text()
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
