"""Writes the person approves on the hub (issue 40), proved with the test-only write tool.

Off (the default), the two steps are today's, byte for byte. On, the preview carries a link to a
page only the token's person sees; the confirmation runs only after «Aprobar» there, exactly once,
and «Rechazar» spends the token.
"""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from apps.mcp import confirmacion
from apps.mcp.models import AjustesAsistente, Aprobacion, ConfirmacionUsada, RegistroAuditoria
from hub.herramientas.registro import registro
from hub.http.enlaces import absoluta
from hub.http.respuestas import a_json
from tests.factories import UserFactory
from tests.mcp_cliente import ajustar, error_herramienta, llamar, resultado_valido

pytestmark = pytest.mark.django_db

NOMBRE = "Comité aprobado"


def _previa(client, cabeceras, nombre=NOMBRE):
    return llamar(client, "prueba_grupo", {"nombre": nombre}, **cabeceras)


def _confirmar(client, cabeceras, token, nombre=NOMBRE):
    argumentos = {"nombre": nombre, "confirmar": True, "token_confirmacion": token}
    return llamar(client, "prueba_grupo", argumentos, **cabeceras)


@pytest.fixture
def encendida(herramientas_prueba):
    return ajustar(aprobar_en_el_hub=True)


@pytest.fixture
def pendiente(client, como_completo, encendida):
    """A preview waiting for the person's approval: (structuredContent, its approval row)."""
    datos = resultado_valido(_previa(client, como_completo), "prueba_grupo")
    return datos, Aprobacion.objects.get()


def _pagina(usuario) -> Client:
    navegador = Client(enforce_csrf_checks=True)
    navegador.force_login(usuario)
    return navegador


def _decidir(navegador: Client, enlace: str, decision: str):
    """POST the page's own form, with the CSRF token the page gave."""
    pagina = navegador.get(enlace)
    assert pagina.status_code == 200
    csrf = pagina.context["csrf_token"]
    return navegador.post(enlace, {"decision": decision, "csrfmiddlewaretoken": str(csrf)})


# --- the switch off: today's flow ------------------------------------------------------------


def test_the_switch_is_off_by_default():
    assert AjustesAsistente.cargar().aprobar_en_el_hub is False


def test_with_the_switch_off_the_preview_is_todays_byte_for_byte(
    client, como_completo, herramientas_prueba
):
    r = _previa(client, como_completo)
    datos = r.resultado["structuredContent"]
    token = datos["token_confirmacion"]
    esperado = {
        "nombre": NOMBRE,
        "requiere_confirmacion": True,
        "token_confirmacion": token,
        "vence_en": confirmacion.vence_en(300),
    }
    resumen = (
        f"Se creará el grupo {NOMBRE}. Nada se ha escrito todavía: muestre esta vista previa a la "
        "persona y, solo si la aprueba, repita la llamada con los mismos argumentos, "
        "confirmar=true y el token_confirmacion (vale 5 min y un solo uso)."
    )
    assert r.resultado == {
        "content": [
            {"type": "text", "text": resumen},
            {"type": "text", "text": a_json(esperado).decode("utf-8")},
        ],
        "isError": False,
        "structuredContent": esperado,
    }
    assert r.resultado["content"][1]["text"] == a_json(esperado).decode("utf-8")
    assert list(datos) == list(esperado)
    assert not Aprobacion.objects.exists()
    resultado_valido(_confirmar(client, como_completo, token), "prueba_grupo")
    assert Group.objects.filter(name=NOMBRE).count() == 1
    escritura = RegistroAuditoria.objects.filter(resultado="ok").first()
    assert escritura.argumentos == {"nombre": NOMBRE, "confirmar": True}


# --- the switch on: the preview and the link ---------------------------------------------------


def test_with_the_switch_on_the_preview_carries_a_link_of_its_own_never_the_token(
    client, como_completo, pendiente
):
    datos, fila = pendiente
    token = datos["token_confirmacion"]
    enlace = f"/mcp/aprobaciones/{fila.clave}/"
    assert datos["aprobacion"] == {"enlace": enlace, "url": absoluta(enlace)}
    assert list(datos) == [
        "nombre",
        "requiere_confirmacion",
        "token_confirmacion",
        "vence_en",
        "aprobacion",
    ]
    assert len(fila.clave) >= 40 and fila.clave not in token and token not in enlace
    carga = confirmacion.descifrar(token)
    assert fila.jti == carga["j"]
    assert fila.vence == confirmacion.vence_de(carga)
    assert fila.estado == "pendiente"
    assert fila.previa == {"nombre": NOMBRE}
    assert fila.resumen == f"Se creará el grupo {NOMBRE}."


def test_every_write_tool_declares_the_approval_link_on_its_preview_and_its_errors():
    escrituras = [h for h in registro if h.escritura]
    assert {h.nombre for h in escrituras} >= {"comentar_solicitud", "radicar_mesa_ayuda"}
    for h in escrituras:
        previa, _salida, error = h.esquema_salida["anyOf"]
        for miembro in (previa, error):
            aprobacion = miembro["properties"]["aprobacion"]
            assert aprobacion["required"] == ["enlace", "url"]
            assert aprobacion["properties"]["url"]["format"] == "uri"
        assert "aprobacion" not in previa["required"]


def test_before_approval_the_confirmation_is_refused_with_the_link_and_nothing_is_written(
    client, como_completo, pendiente
):
    datos, fila = pendiente
    error = error_herramienta(
        _confirmar(client, como_completo, datos["token_confirmacion"]), "APROBACION_PENDIENTE"
    )
    assert error["aprobacion"] == datos["aprobacion"]
    assert datos["aprobacion"]["url"] in error["mensaje"]
    assert "abra el enlace" in error["mensaje"]
    assert not Group.objects.filter(name=NOMBRE).exists()
    assert not ConfirmacionUsada.objects.exists()  # still usable once approved
    fila.refresh_from_db()
    assert fila.estado == "pendiente"


# --- approved, rejected, expired, reused --------------------------------------------------------


def test_approved_on_the_page_the_confirmation_writes_once_and_the_audit_says_so(
    client, como_completo, completo, pendiente
):
    datos, fila = pendiente
    navegador = _pagina(completo)
    assert _decidir(navegador, fila.enlace, "aprobar").status_code == 302
    fila.refresh_from_db()
    assert fila.estado == "aprobada" and fila.decidida_en is not None

    hecho = resultado_valido(
        _confirmar(client, como_completo, datos["token_confirmacion"]), "prueba_grupo"
    )
    assert hecho["nombre"] == NOMBRE
    assert Group.objects.filter(name=NOMBRE).count() == 1
    escritura = RegistroAuditoria.objects.filter(resultado="ok").order_by("-id").first()
    assert escritura.argumentos == {"nombre": NOMBRE, "confirmar": True, "aprobada_en_el_hub": True}
    assert datos["token_confirmacion"] not in json.dumps(escritura.argumentos)
    previa = RegistroAuditoria.objects.filter(resultado="ok").order_by("id").first()
    assert "aprobada_en_el_hub" not in previa.argumentos

    otra = _confirmar(client, como_completo, datos["token_confirmacion"])
    error_herramienta(otra, "CONFIRMACION_USADA")
    assert Group.objects.filter(name=NOMBRE).count() == 1
    assert "Aprobada y realizada" in navegador.get(fila.enlace).content.decode()


def test_a_caller_cannot_write_the_approval_mark_into_the_audit_itself(
    client, como_completo, herramientas_prueba
):
    argumentos = {"nombre": NOMBRE, "aprobada_en_el_hub": True}
    r = llamar(client, "prueba_grupo", argumentos, **como_completo)
    error_herramienta(r, "DATOS_INVALIDOS")
    assert "aprobada_en_el_hub" not in RegistroAuditoria.objects.get().argumentos


def test_an_approval_still_binds_the_same_arguments(client, como_completo, completo, pendiente):
    datos, fila = pendiente
    _decidir(_pagina(completo), fila.enlace, "aprobar")
    otra = _confirmar(client, como_completo, datos["token_confirmacion"], nombre="Otro comité")
    error_herramienta(otra, "CONFIRMACION_NO_COINCIDE")
    assert not Group.objects.exists()


def test_rejected_on_the_page_the_token_is_spent_and_the_confirmation_refused(
    client, como_completo, completo, pendiente
):
    datos, fila = pendiente
    navegador = _pagina(completo)
    assert _decidir(navegador, fila.enlace, "rechazar").status_code == 302
    fila.refresh_from_db()
    assert fila.estado == "rechazada"
    assert ConfirmacionUsada.objects.filter(jti=fila.jti).exists()

    error = error_herramienta(
        _confirmar(client, como_completo, datos["token_confirmacion"]), "APROBACION_RECHAZADA"
    )
    assert "rechazó" in error["mensaje"]
    ajustar(aprobar_en_el_hub=False)  # switched off later: the rejection still stands
    error_herramienta(
        _confirmar(client, como_completo, datos["token_confirmacion"]), "APROBACION_RECHAZADA"
    )
    assert not Group.objects.exists()
    # Decided once: approving after rejecting changes nothing.
    assert _decidir(navegador, fila.enlace, "aprobar").status_code == 409
    fila.refresh_from_db()
    assert fila.estado == "rechazada"


def test_a_pending_approval_stays_required_when_the_switch_is_turned_off_later(
    client, como_completo, pendiente
):
    datos, _fila = pendiente
    ajustar(aprobar_en_el_hub=False)
    r = _confirmar(client, como_completo, datos["token_confirmacion"])
    error_herramienta(r, "APROBACION_PENDIENTE")
    assert not Group.objects.exists()


def test_a_token_issued_with_the_switch_off_cannot_confirm_once_it_is_on(
    client, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo).estructura["token_confirmacion"]
    ajustar(aprobar_en_el_hub=True)
    error = error_herramienta(_confirmar(client, como_completo, token), "CONFIRMACION_INVALIDA")
    assert "nueva vista previa" in error["mensaje"]
    assert not Group.objects.exists()


def test_an_expired_preview_can_be_neither_approved_nor_confirmed(
    client, como_completo, completo, pendiente, monkeypatch
):
    datos, fila = pendiente
    Aprobacion.objects.filter(pk=fila.pk).update(vence=timezone.now() - timedelta(seconds=1))
    navegador = _pagina(completo)
    pagina = navegador.get(fila.enlace).content.decode()
    assert "Vencida" in pagina and 'value="aprobar"' not in pagina
    respuesta = navegador.post(fila.enlace, {"decision": "aprobar"}, secure=False)
    assert respuesta.status_code == 403  # no CSRF token: refused before anything
    csrf = navegador.get(fila.enlace).context["csrf_token"]
    tarde = navegador.post(fila.enlace, {"decision": "aprobar", "csrfmiddlewaretoken": str(csrf)})
    assert tarde.status_code == 409
    assert "venció" in tarde.content.decode()
    fila.refresh_from_db()
    assert fila.estado == "pendiente"

    ahora = confirmacion.time.time()
    monkeypatch.setattr(confirmacion.time, "time", lambda: ahora + 301)
    r = _confirmar(client, como_completo, datos["token_confirmacion"])
    error_herramienta(r, "CONFIRMACION_VENCIDA")


# --- who sees the page, and how it is decided ---------------------------------------------------


def test_another_person_gets_404_and_cannot_decide(client, pendiente):
    _datos, fila = pendiente
    otra = _pagina(UserFactory(permisos=["mcp.asistente.usar"]))
    assert otra.get(fila.enlace).status_code == 404
    otra.force_login(UserFactory(is_staff=True, is_superuser=True))  # not even an administrator
    assert otra.get(fila.enlace).status_code == 404
    libre = Client()
    libre.force_login(UserFactory())
    assert libre.post(fila.enlace, {"decision": "aprobar"}).status_code == 404
    fila.refresh_from_db()
    assert fila.estado == "pendiente"


def test_an_unknown_link_is_404_and_a_visitor_is_sent_to_sign_in(client, completo, pendiente):
    _datos, fila = pendiente
    assert _pagina(completo).get("/mcp/aprobaciones/no-existe/").status_code == 404
    anonimo = Client().get(fila.enlace)
    assert anonimo.status_code == 302
    assert anonimo["Location"].startswith("/cuentas/login/")


def test_opening_the_link_never_approves_and_the_page_shows_what_will_be_written(
    completo, pendiente
):
    _datos, fila = pendiente
    navegador = _pagina(completo)
    for _ in range(3):
        pagina = navegador.get(fila.enlace)
    html = pagina.content.decode()
    assert pagina.status_code == 200
    assert "no-store" in pagina["Cache-Control"] or "no-cache" in pagina["Cache-Control"]
    assert "Crear grupo (prueba)" in html
    assert f"Se creará el grupo {NOMBRE}." in html
    assert html.count('name="decision"') == 2  # two POST forms (the header has logout too)
    assert 'value="aprobar"' in html and 'value="rechazar"' in html
    assert "csrfmiddlewaretoken" in html
    fila.refresh_from_db()
    assert fila.estado == "pendiente" and fila.decidida_en is None


def test_a_post_without_a_decision_changes_nothing(completo, pendiente):
    _datos, fila = pendiente
    navegador = _pagina(completo)
    csrf = navegador.get(fila.enlace).context["csrf_token"]
    r = navegador.post(fila.enlace, {"decision": "quizas", "csrfmiddlewaretoken": str(csrf)})
    assert r.status_code == 409
    fila.refresh_from_db()
    assert fila.estado == "pendiente"


def test_the_maintenance_command_deletes_expired_approvals_only(pendiente, completo):
    _datos, fila = pendiente
    vigente = Aprobacion.objects.create(
        jti="b" * 32,
        clave="otra-clave",
        herramienta="prueba_grupo",
        titulo="Crear grupo (prueba)",
        usuario=completo,
        resumen="x",
        vence=timezone.now() + timedelta(minutes=5),
    )
    Aprobacion.objects.filter(pk=fila.pk).update(vence=timezone.now() - timedelta(seconds=1))
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    assert "aprobaciones en el hub vencidas: 1 borradas" in salida.getvalue()
    assert list(Aprobacion.objects.all()) == [vigente]
