"""`manage.py mantenimiento`: what is past its retention is purged in batches, with counts printed;
the audit log is kept whole unless a retention is configured, and stays append-only for people."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria, SoloAgregar
from apps.notificaciones.models import MensajeContacto
from tests.factories import UserFactory
from tests.notificaciones.factories import MensajeContactoFactory

pytestmark = pytest.mark.django_db

AHORA = timezone.now()


def _mantenimiento(*args: str) -> str:
    salida = io.StringIO()
    call_command("mantenimiento", *args, stdout=salida)
    return salida.getvalue()


def _auditoria(dias: int) -> RegistroAuditoria:
    return RegistroAuditoria.objects.create(
        creado=AHORA - timedelta(days=dias),
        herramienta="estado_cdp",
        resultado="ok",
        credencial=RegistroAuditoria.TipoCredencial.CLAVE,
    )


def _confirmacion(persona, jti: str, vence_en: timedelta) -> ConfirmacionUsada:
    return ConfirmacionUsada.objects.create(
        jti=jti, herramienta="comentar_solicitud", usuario=persona, vence=timezone.now() + vence_en
    )


def _sesion(vencida_hace: timedelta) -> str:
    sesion = SessionStore()
    sesion["dato"] = 1
    sesion.create()
    Session.objects.filter(pk=sesion.session_key).update(expire_date=timezone.now() - vencida_hace)
    return sesion.session_key


# --- used confirmation tokens ------------------------------------------------------------------


def test_used_confirmation_tokens_are_deleted_once_their_expiry_has_passed():
    persona = UserFactory()
    _confirmacion(persona, "vencida", timedelta(seconds=-1))
    _confirmacion(persona, "vigente", timedelta(minutes=4))
    salida = _mantenimiento()
    assert list(ConfirmacionUsada.objects.values_list("jti", flat=True)) == ["vigente"]
    assert "confirmaciones usadas vencidas: 1 borradas" in salida


# --- audit log ---------------------------------------------------------------------------------


def test_without_a_retention_the_audit_log_is_kept_whole(settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = None
    _auditoria(dias=5000)
    salida = _mantenimiento()
    assert RegistroAuditoria.objects.count() == 1
    assert "registro de auditoría: se conserva todo" in salida


def test_with_a_retention_only_older_audit_rows_are_purged(settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = 30
    viejas = [_auditoria(dias=31), _auditoria(dias=400)]
    reciente = _auditoria(dias=29)
    salida = _mantenimiento()
    assert list(RegistroAuditoria.objects.all()) == [reciente]
    assert not RegistroAuditoria.objects.filter(pk__in=[f.pk for f in viejas]).exists()
    assert "registro de auditoría (más de 30 días): 2 borradas" in salida


def test_the_audit_purge_is_one_delete_statement(django_assert_num_queries):
    _auditoria(dias=31), _auditoria(dias=400), _auditoria(dias=1)
    with django_assert_num_queries(1):
        borradas = RegistroAuditoria.objects.anteriores_a(
            AHORA - timedelta(days=30)
        ).purgar_por_retencion()
    assert borradas == 2 and RegistroAuditoria.objects.count() == 1


def test_audit_rows_stay_append_only_for_people(admin_client, settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = 30
    fila = _auditoria(dias=400)
    with pytest.raises(SoloAgregar):
        RegistroAuditoria.objects.filter(pk=fila.pk).delete()
    with pytest.raises(SoloAgregar):
        fila.delete()
    # The admin offers no delete, neither the action nor the page.
    lista = admin_client.get("/admin/mcp/registroauditoria/")
    assert "delete_selected" not in lista.content.decode()
    assert admin_client.get(f"/admin/mcp/registroauditoria/{fila.pk}/delete/").status_code == 403
    assert admin_client.post(
        "/admin/mcp/registroauditoria/",
        {"action": "delete_selected", "_selected_action": [fila.pk], "post": "yes"},
    ).status_code in (200, 302)
    assert RegistroAuditoria.objects.filter(pk=fila.pk).exists()


# --- contact messages --------------------------------------------------------------------------


def test_contact_messages_past_their_retention_are_purged(settings):
    settings.HUB_RETENCION_CONTACTO_DIAS = 365
    viejo = MensajeContactoFactory(recibido_en=AHORA - timedelta(days=366))
    nuevo = MensajeContactoFactory(recibido_en=AHORA - timedelta(days=364))
    salida = _mantenimiento()
    assert list(MensajeContacto.objects.all()) == [nuevo]
    assert not MensajeContacto.objects.filter(pk=viejo.pk).exists()
    assert "mensajes de contacto (más de 365 días): 1 borrados" in salida


def test_the_default_contact_retention_is_a_year(settings):
    from hub import settings as propios

    assert propios.HUB_RETENCION_CONTACTO_DIAS == 365
    assert propios.HUB_RETENCION_AUDITORIA_DIAS is None
    assert propios.HUB_RETENCION_SESIONES_DIAS == 0


# --- sessions ----------------------------------------------------------------------------------


def test_expired_sessions_are_purged_after_their_retention(settings):
    settings.HUB_RETENCION_SESIONES_DIAS = 7
    vieja = _sesion(vencida_hace=timedelta(days=8))
    reciente = _sesion(vencida_hace=timedelta(days=6))
    viva = _sesion(vencida_hace=timedelta(days=-14))
    salida = _mantenimiento()
    assert set(Session.objects.values_list("session_key", flat=True)) == {reciente, viva}
    assert vieja not in salida  # counts only, never a session key
    assert "sesiones (vencidas hace más de 7 días): 1 borradas" in salida


def test_by_default_a_session_is_purged_as_soon_as_it_expires(settings):
    settings.HUB_RETENCION_SESIONES_DIAS = 0
    _sesion(vencida_hace=timedelta(minutes=1))
    viva = _sesion(vencida_hace=timedelta(days=-1))
    _mantenimiento()
    assert list(Session.objects.values_list("session_key", flat=True)) == [viva]


# --- batches and dry run -----------------------------------------------------------------------


def test_rows_are_deleted_in_batches_of_the_given_size(settings):
    settings.HUB_RETENCION_CONTACTO_DIAS = 30
    MensajeContactoFactory.create_batch(5, recibido_en=AHORA - timedelta(days=40))
    with CaptureQueriesContext(connection) as consultas:
        salida = _mantenimiento("--lote", "2")
    borrados = [
        q["sql"]
        for q in consultas.captured_queries
        if q["sql"].startswith("DELETE") and "notificaciones_mensajecontacto" in q["sql"]
    ]
    assert len(borrados) == 3  # 2 + 2 + 1: each batch its own short statement
    assert MensajeContacto.objects.count() == 0
    assert "mensajes de contacto (más de 30 días): 5 borrados" in salida


def test_a_dry_run_counts_and_deletes_nothing(settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = 30
    settings.HUB_RETENCION_CONTACTO_DIAS = 30
    _auditoria(dias=40)
    MensajeContactoFactory(recibido_en=AHORA - timedelta(days=40))
    salida = _mantenimiento("--simular")
    assert RegistroAuditoria.objects.count() == 1
    assert MensajeContacto.objects.count() == 1
    assert "registro de auditoría (más de 30 días): 1 se borrarían" in salida
    assert "mensajes de contacto (más de 30 días): 1 se borrarían" in salida


@pytest.mark.parametrize(
    ("variable", "valor"),
    [
        ("HUB_RETENCION_AUDITORIA_DIAS", "0"),
        ("HUB_RETENCION_AUDITORIA_DIAS", "siempre"),
        ("HUB_RETENCION_CONTACTO_DIAS", "0"),
        ("HUB_RETENCION_SESIONES_DIAS", "-1"),
    ],
)
def test_a_bad_retention_stops_the_start(variable, valor):
    import subprocess
    import sys

    resultado = subprocess.run(
        [sys.executable, "-c", "import hub.settings"],
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "hub.settings",
            "SECRET_KEY": "pruebas-" + "x1y2z3w4" * 7,
            variable: valor,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert resultado.returncode != 0
    assert variable in resultado.stderr


# --- the whole report --------------------------------------------------------------------------


def test_a_run_reports_every_table_once_in_a_fixed_order(settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = 30
    settings.HUB_RETENCION_CONTACTO_DIAS = 60
    settings.HUB_RETENCION_SESIONES_DIAS = 2
    _auditoria(dias=40)
    MensajeContactoFactory(recibido_en=AHORA - timedelta(days=70))
    assert _mantenimiento().splitlines() == [
        "rechazos del asistente: 0 fila(s) cerrada(s)",
        "confirmaciones usadas vencidas: 0 borradas",
        "aprobaciones en el hub vencidas: 0 borradas",
        "registro de auditoría (más de 30 días): 1 borradas",
        "rechazos del asistente (más de 30 días): 0 borradas",
        "tokens de refresco OAuth vencidos: 0 borrados",
        "tokens de acceso OAuth vencidos: 0 borrados",
        "códigos de autorización OAuth vencidos: 0 borrados",
        "códigos de autorización OAuth canjeados (hace más de 60 minutos): 0 borrados",
        "aplicaciones registradas que nunca completaron un ingreso (hace más de 30 días): "
        "0 borradas",
        "mensajes de contacto (más de 60 días): 1 borrados",
        "sesiones (vencidas hace más de 2 días): 0 borradas",
    ]


def test_a_dry_run_reports_every_table_once_and_closes_no_refusal_count():
    assert _mantenimiento("--simular").splitlines() == [
        "confirmaciones usadas vencidas: 0 se borrarían",
        "aprobaciones en el hub vencidas: 0 se borrarían",
        "registro de auditoría: se conserva todo (HUB_RETENCION_AUDITORIA_DIAS sin definir)",
        "rechazos del asistente: se conserva todo, como el registro de auditoría",
        "tokens de refresco OAuth vencidos: 0 se borrarían",
        "tokens de acceso OAuth vencidos: 0 se borrarían",
        "códigos de autorización OAuth vencidos: 0 se borrarían",
        "códigos de autorización OAuth canjeados (hace más de 60 minutos): 0 se borrarían",
        "aplicaciones registradas que nunca completaron un ingreso (hace más de 30 días): "
        "0 se borrarían",
        "mensajes de contacto (más de 365 días): 0 se borrarían",
        "sesiones (vencidas hace más de 0 días): 0 se borrarían",
    ]
