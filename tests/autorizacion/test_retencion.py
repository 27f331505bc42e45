"""`manage.py mantenimiento` purges the OAuth rows nobody can use any more, and only those."""

from __future__ import annotations

import io
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion.models import Aplicacion, CanjeCodigo
from apps.mcp.models import AjustesAsistente
from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_tokens_past_the_refresh_lifetime_are_purged_and_live_ones_kept():
    persona = UserFactory(username="ana_retencion")
    app = nueva_aplicacion()
    viejo, _, _ = emitir_token(persona, app)
    vivo, _, _ = emitir_token(persona, app)
    hace = timezone.now() - timedelta(days=31)
    AccessToken.objects.filter(pk=viejo.pk).update(expires=hace)
    RefreshToken.objects.filter(access_token=viejo).update(created=hace)
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    assert "tokens de refresco OAuth vencidos" in salida.getvalue()
    assert list(AccessToken.objects.values_list("pk", flat=True)) == [vivo.pk]
    assert list(RefreshToken.objects.values_list("access_token", flat=True)) == [vivo.pk]


def test_the_purge_follows_the_administrators_refresh_lifetime_not_a_fixed_one():
    ajustes = AjustesAsistente.fila()
    ajustes.oauth_refresco_dias = 5
    ajustes.save()
    persona = UserFactory(username="beto_retencion")
    app = nueva_aplicacion()
    viejo, _, _ = emitir_token(persona, app)
    reciente, _, _ = emitir_token(persona, app)
    for fila, dias in ((viejo, 6), (reciente, 4)):
        hace = timezone.now() - timedelta(days=dias)
        AccessToken.objects.filter(pk=fila.pk).update(expires=hace)
        RefreshToken.objects.filter(access_token=fila).update(created=hace)
    call_command("mantenimiento", stdout=io.StringIO())
    assert list(AccessToken.objects.values_list("pk", flat=True)) == [reciente.pk]
    assert list(RefreshToken.objects.values_list("access_token", flat=True)) == [reciente.pk]


def test_expired_codes_are_purged_and_live_ones_kept():
    persona = UserFactory(username="caro_retencion")
    app = nueva_aplicacion()
    for codigo, segundos in (("vencido", -1), ("vivo", 60)):
        Grant.objects.create(
            user=persona,
            application=app,
            code=codigo,
            expires=timezone.now() + timedelta(seconds=segundos),
            redirect_uri=app.redirect_uris,
            scope="asistente:leer",
        )
    call_command("mantenimiento", stdout=io.StringIO())
    assert list(Grant.objects.values_list("code", flat=True)) == ["vivo"]


def test_records_of_exchanged_codes_are_purged_after_an_hour_and_recent_ones_kept():
    for huella, minutos in (("a" * 64, 61), ("b" * 64, 59)):
        canje = CanjeCodigo.objects.create(huella=huella, familia=uuid.uuid4())
        hace = timezone.now() - timedelta(minutes=minutos)
        CanjeCodigo.objects.filter(pk=canje.pk).update(canjeado=hace)
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    assert "códigos de autorización OAuth canjeados" in salida.getvalue()
    assert list(CanjeCodigo.objects.values_list("huella", flat=True)) == ["b" * 64]


def _registrada(nombre: str, dias: int, **campos):
    app = nueva_aplicacion(nombre, **campos)
    Aplicacion.objects.filter(pk=app.pk).update(created=timezone.now() - timedelta(days=dias))
    return app


def test_registrations_that_never_completed_a_sign_in_go_after_thirty_days():
    """Claude registers twice per connection: the unused registration must not pile up."""
    persona = UserFactory(username="dora_retencion")
    olvidada = _registrada("Claude (segundo registro)", 31)
    cimd = _registrada("Documento sin uso", 31, registration_source=Aplicacion.Origen.CIMD)
    reciente = _registrada("Claude (de ayer)", 29)
    conectada = _registrada("Claude", 90)
    emitir_token(persona, conectada)
    usada = _registrada("Cursor", 90, ultimo_uso=timezone.now() - timedelta(days=60))
    en_curso = _registrada("VS Code", 31)
    Grant.objects.create(
        user=persona,
        application=en_curso,
        code="en-curso",
        expires=timezone.now() + timedelta(seconds=60),
        redirect_uri=en_curso.redirect_uris,
        scope="asistente:leer",
    )
    manual = _registrada("Agregada a mano", 400, registration_source=Aplicacion.Origen.MANUAL)
    verificada = _registrada("Verificada sin uso", 400, verificada=True)
    deshabilitada = _registrada("Deshabilitada", 400, deshabilitada=True)
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    assert "aplicaciones registradas que nunca completaron un ingreso" in salida.getvalue()
    quedan = set(Aplicacion.objects.values_list("pk", flat=True))
    assert olvidada.pk not in quedan and cimd.pk not in quedan
    assert quedan == {
        a.pk for a in (reciente, conectada, usada, en_curso, manual, verificada, deshabilitada)
    }
