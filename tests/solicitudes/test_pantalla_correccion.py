"""The filer's correction from the request page: offered only to whom `corregir` allows it (the
filer; the stage's role for an outside filer), refused to the rest with the service's reason."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from apps.solicitudes import services
from apps.solicitudes.models import CampoFormulario, Comentario, Evento, Solicitud, Tarea
from tests.factories import dar_permisos
from tests.solicitudes.factories import lo_que_envia, persona

pytestmark = pytest.mark.django_db

OFERTA = "Enviar la corrección"
CAMPOS = [
    {"nombre": "cargo", "etiqueta": "Cargo", "valor": "Profesional universitario"},
    {"nombre": "entidad_destino", "etiqueta": "Entidad de destino", "valor": "Banco Agrario"},
    {"nombre": "cedula", "etiqueta": "Cédula", "valor": "1032456789", "sensible": True},
]


def _plano(r) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.content.decode())).split())


def _devuelta(flujo, **kwargs) -> Solicitud:
    s = flujo.radicar(campos=CAMPOS, **kwargs)
    return services.devolver(
        solicitud=s, actor=flujo.responsables[0], motivo="Falta el cargo completo"
    )


def _foto(s: Solicitud) -> tuple:
    s.refresh_from_db()
    return (
        s.estado,
        s.resumen,
        sorted(CampoFormulario.objects.filter(solicitud=s).values_list("nombre", "valor")),
        list(Tarea.objects.filter(solicitud=s).values_list("pk", "completada_en")),
        Evento.objects.filter(solicitud=s).count(),
        Comentario.objects.filter(solicitud=s).count(),
    )


def test_the_filer_sees_the_correction_form_with_what_was_filed_and_what_to_fix(client, flujo):
    s = _devuelta(flujo)
    client.force_login(flujo.solicitante)
    r = client.get(s.enlace)
    assert r.status_code == 200
    texto = r.content.decode()
    assert OFERTA in _plano(r)
    assert "Falta el cargo completo" in _plano(r)  # the return's reason, beside the form
    accion = f'action="{s.enlace}/corregir"'
    assert f'<form method="post" {accion}' in texto
    formulario = texto.split(accion)[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in formulario
    assert re.search(r'<input [^>]*name="resumen"[^>]*value="Certificado laboral para', formulario)
    assert re.search(r'name="campo_cargo"[^>]*value="Profesional universitario"', formulario)
    assert re.search(r'name="campo_entidad_destino"[^>]*value="Banco Agrario"', formulario)
    assert "cedula" not in formulario and "1032456789" not in texto  # sensitive: never shown
    assert '<textarea id="comentario-corregir" name="comentario"' in formulario


def test_the_filer_sends_the_correction_and_it_goes_back_to_the_stage(client, flujo):
    s = _devuelta(flujo)
    client.force_login(flujo.solicitante)
    r = client.post(
        f"{s.enlace}/corregir",
        lo_que_envia(
            s,
            {
                "resumen": "Certificado laboral con cargo completo",
                "campo_cargo": "Profesional universitario grado 2",
                "campo_entidad_destino": "Banco Agrario",
                "comentario": "Corregí el cargo.",
            },
        ),
    )
    assert r.status_code == 302
    assert r["Location"] == s.enlace
    s.refresh_from_db()
    assert s.estado == "en_tramite"
    assert s.etapa_actual == flujo.tipo.etapas.get(orden=1)
    assert s.resumen == "Certificado laboral con cargo completo"
    valores = dict(CampoFormulario.objects.filter(solicitud=s).values_list("nombre", "valor"))
    assert valores == {
        "cargo": "Profesional universitario grado 2",
        "entidad_destino": "Banco Agrario",
        "cedula": "1032456789",
    }
    assert Comentario.objects.get(solicitud=s).texto == "Corregí el cargo."
    assert Evento.objects.filter(solicitud=s).latest("pk").accion == "corregida"
    siguiente = _plano(client.get(s.enlace))
    assert f"Envió la corrección: la solicitud {s.numero_visible} volvió a su trámite." in (
        siguiente
    )
    assert OFERTA not in siguiente


def test_sending_it_unchanged_only_sends_it_back(client, flujo):
    s = _devuelta(flujo)
    antes = s.resumen
    client.force_login(flujo.solicitante)
    datos = {
        "resumen": antes,
        "campo_cargo": "Profesional universitario",
        "campo_entidad_destino": "Banco Agrario",
        "comentario": "",
    }
    assert client.post(f"{s.enlace}/corregir", lo_que_envia(s, datos)).status_code == 302
    s.refresh_from_db()
    assert (s.estado, s.resumen) == ("en_tramite", antes)
    assert not Comentario.objects.filter(solicitud=s).exists()


@pytest.mark.parametrize("papel", ["titular", "colega"])
def test_the_stage_people_are_not_offered_it_and_the_service_refuses_them(client, flujo, papel):
    s = _devuelta(flujo)
    actor = flujo.responsables[0] if papel == "titular" else persona(flujo.roles[0])
    if papel == "colega":
        dar_permisos(actor, "solicitudes.ver_todas")
    client.force_login(actor)
    pagina = client.get(s.enlace)
    assert pagina.status_code == 200
    assert OFERTA not in _plano(pagina)
    assert "/corregir" not in pagina.content.decode()
    antes = _foto(s)
    r = client.post(f"{s.enlace}/corregir", lo_que_envia(s, {"resumen": "Otro resumen cualquiera"}))
    assert r.status_code == 403
    assert "Solo el solicitante puede enviar la corrección." in _plano(r)
    assert _foto(s) == antes


def test_whoever_cannot_see_the_request_gets_404_and_nothing_changes(client, flujo):
    s = _devuelta(flujo)
    client.force_login(persona(flujo.roles[1]))
    antes = _foto(s)
    assert client.get(s.enlace).status_code == 404
    assert (
        client.post(
            f"{s.enlace}/corregir", lo_que_envia(s, {"resumen": "Otro resumen"})
        ).status_code
        == 404
    )
    assert _foto(s) == antes


def test_for_an_outside_filer_the_stages_role_records_the_correction(client, flujo):
    s = _devuelta(flujo, nombre_solicitante="María Gómez", correo_solicitante="maria@correo.co")
    colega = persona(flujo.roles[0])
    dar_permisos(colega, "solicitudes.ver_todas")
    client.force_login(colega)
    assert OFERTA in _plano(client.get(s.enlace))
    r = client.post(
        f"{s.enlace}/corregir", lo_que_envia(s, {"campo_cargo": "Técnico administrativo"})
    )
    assert r.status_code == 302
    s.refresh_from_db()
    assert s.estado == "en_tramite"
    assert CampoFormulario.objects.get(solicitud=s, nombre="cargo").valor == (
        "Técnico administrativo"
    )


def test_a_request_not_returned_is_409_with_the_reason(client, flujo):
    s = flujo.radicar(campos=CAMPOS)
    client.force_login(flujo.solicitante)
    assert OFERTA not in _plano(client.get(s.enlace))
    antes = _foto(s)
    r = client.post(f"{s.enlace}/corregir", lo_que_envia(s, {"resumen": "Otro resumen cualquiera"}))
    assert r.status_code == 409
    assert "No se puede corregir una solicitud en estado «Radicado»." in _plano(r)
    assert _foto(s) == antes


def test_bad_input_is_422_with_each_problem_by_its_field_and_keeps_what_was_typed(client, flujo):
    s = _devuelta(flujo)
    client.force_login(flujo.solicitante)
    antes = _foto(s)
    r = client.post(
        f"{s.enlace}/corregir",
        lo_que_envia(
            s,
            {
                "resumen": "abc",
                "campo_cargo": "Cargo escrito de nuevo",
                "campo_entidad_destino": "Banco Agrario",
                "comentario": "Lo que escribí",
            },
        ),
    )
    assert r.status_code == 422
    texto = r.content.decode()
    formulario = texto.split(f'action="{s.enlace}/corregir"')[1].split("</form>")[0]
    assert re.search(r'name="resumen"[^>]*value="abc"', formulario)
    assert re.search(r'name="campo_cargo"[^>]*value="Cargo escrito de nuevo"', formulario)
    assert ">Lo que escribí</textarea>" in formulario
    assert "Debe tener al menos 5 caracteres." in formulario
    assert _foto(s) == antes


def test_a_field_too_long_is_422_under_that_field(client, flujo):
    s = _devuelta(flujo)
    client.force_login(flujo.solicitante)
    r = client.post(f"{s.enlace}/corregir", lo_que_envia(s, {"campo_cargo": "x" * 10_001}))
    assert r.status_code == 422
    formulario = r.content.decode().split(f'action="{s.enlace}/corregir"')[1]
    cargo = formulario.split('name="campo_cargo"')[1].split("</div>")[0]
    assert "Debe tener como máximo 10000 caracteres." in cargo


def test_the_correction_needs_its_csrf_token(flujo):
    s = _devuelta(flujo)
    cliente = Client(enforce_csrf_checks=True)
    cliente.force_login(flujo.solicitante)
    antes = _foto(s)
    r = cliente.post(
        f"{s.enlace}/corregir", lo_que_envia(s, {"resumen": "Otro resumen cualquiera"})
    )
    assert r.status_code == 403
    assert _foto(s) == antes
    assert cliente.get(f"{s.enlace}/corregir").status_code == 405
