"""Signing a stage and the 409 of a stale form, in a real browser at 1280 px and on a phone
(390 px); screenshots in var/capturas/ (solicitud_firmar_*, solicitud_firmar_error_*,
solicitud_cambio_*)."""

from __future__ import annotations

import pytest

from apps.marca import demo as marca_demo
from apps.solicitudes import services
from apps.solicitudes.models import Accion, Evento, Solicitud
from hub.operacion.demo import ContextoDemo
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas
from tests.solicitudes.navegador import ANCHOS, aviso, ingresar

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


def _sin_desbordes(pagina, ancho: int) -> None:
    assert ancho_de_pagina(pagina) <= ancho
    assert palabras_partidas(pagina, "main") == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_the_holder_signs_the_stage_with_the_password_after_a_wrong_one(
    flujo, navegador, ancho, alto
):
    marca_demo.cargar(ContextoDemo())
    s = flujo.radicar(resumen="Certificado laboral con funciones para la convocatoria docente")
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    firmante = flujo.responsables[2]
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar(pagina, firmante.username, s.enlace)
    assert pagina.get_by_role("button", name="Aprobar la solicitud").count() == 0

    pagina.get_by_role("link", name="Firmar…").click()
    pagina.wait_for_url(f"**{s.enlace}/firmar")
    titulo = f"Firmar la etapa «{s.etapa_actual.nombre}»"
    assert pagina.get_by_role("heading", name=titulo).is_visible()
    assert pagina.locator("#texto-firma").inner_text() == services.texto_de_firma(s)
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_firmar_{ancho}")

    pagina.get_by_label("Para firmar, escriba otra vez su contraseña").fill("no-es-la-clave")
    pagina.get_by_role("button", name="Firmar", exact=True).click()
    pagina.wait_for_load_state()
    assert pagina.get_by_role("alert").inner_text() == "La contraseña no es correcta."
    assert Solicitud.objects.get(pk=s.pk).estado == "en_tramite"  # nothing signed
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_firmar_error_{ancho}")

    pagina.get_by_label("Para firmar, escriba otra vez su contraseña").fill("clave-de-prueba-123")
    pagina.get_by_role("button", name="Firmar", exact=True).click()
    pagina.wait_for_url(pagina.base + s.enlace)
    assert aviso(pagina) == f"Firmó la etapa: la solicitud {s.numero_visible} siguió su trámite."
    assert Solicitud.objects.get(pk=s.pk).estado == "aprobado"
    assert Evento.objects.get(solicitud=s, accion=Accion.FIRMADA).actor_id == firmante.pk
    assert "Texto firmado:" in pagina.inner_text("main")
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), ANCHOS)
def test_a_page_left_open_while_someone_else_moved_the_request_answers_409(
    flujo, navegador, ancho, alto
):
    marca_demo.cargar(ContextoDemo())
    s = flujo.radicar(resumen="Viáticos de la comisión a Cartagena para la auditoría")
    titular = flujo.responsables[0]
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    ingresar(pagina, titular.username, s.enlace)
    boton = pagina.get_by_role("button", name="Completar la etapa y pasar a «Etapa 2")
    assert boton.is_visible()
    # Meanwhile, in another tab or by a colleague: the stage is completed.
    services.avanzar(solicitud=s, actor=titular)
    boton.click()
    pagina.wait_for_load_state()
    titulo = "La solicitud cambió mientras usted la veía"
    assert pagina.get_by_role("heading", name=titulo).is_visible()
    assert Solicitud.objects.get(pk=s.pk).etapa_actual.orden == 2  # moved once, not twice
    _sin_desbordes(pagina, ancho)
    capturar(pagina, f"solicitud_cambio_{ancho}")
    pagina.get_by_role("link", name="Ver la solicitud como está ahora").click()
    pagina.wait_for_url(pagina.base + s.enlace)
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
