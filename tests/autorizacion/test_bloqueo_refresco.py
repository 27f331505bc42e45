"""Blocking a person, or taking the assistant from them, ends their OAuth connections' refreshing:
their refresh tokens are revoked at once (a refresh is then `invalid_grant`, and a reactivated
person does not revive an old connection), while their live access tokens keep answering 403
SIN_PERMISO until they expire (the decision «Persona bloqueada con un token OAuth: 403»). The
token endpoint also refuses the refresh itself to a person who may not use the assistant, however
the change was made."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group, Permission
from oauth2_provider.models import RefreshToken

from apps.cuentas.models import User
from tests.autorizacion.flujo import conectar, refrescar
from tests.factories import UserFactory
from tests.mcp_cliente import rechazo

pytestmark = pytest.mark.django_db

SIN_ACCESO = (403, "SIN_PERMISO", "Su usuario no tiene acceso al asistente.")


@pytest.fixture
def usar():
    return Permission.objects.get(content_type__app_label="mcp", codename="asistente.usar")


@pytest.fixture
def grupo(usar):
    grupo = Group.objects.create(name="Asistente")
    grupo.permissions.add(usar)
    return grupo


@pytest.fixture
def persona(client, grupo):
    """A person who may use the assistant through a group, signed in."""
    persona = UserFactory(username="bea_oauth")
    persona.groups.add(grupo)
    client.force_login(persona)
    return persona


def _invalid_grant(r) -> None:
    assert r.status_code == 400, r.content
    assert r["Cache-Control"] == "no-store"
    assert json.loads(r.content)["error"] == "invalid_grant"


def _vivos(persona) -> int:
    return RefreshToken.objects.filter(user=persona, revoked__isnull=True).count()


def _bloquear(persona) -> None:
    persona.is_active = False
    persona.save()


def _sin_grupo(persona, grupo, usar) -> None:
    persona.groups.remove(grupo)


def _grupo_sin_asistente(persona, grupo, usar) -> None:
    grupo.permissions.remove(usar)


def _fuera_del_grupo_desde_el_grupo(persona, grupo, usar) -> None:
    grupo.user_set.remove(persona)


def _grupo_borrado(persona, grupo, usar) -> None:
    grupo.delete()


@pytest.mark.parametrize(
    "quitar", [_sin_grupo, _grupo_sin_asistente, _fuera_del_grupo_desde_el_grupo, _grupo_borrado]
)
def test_losing_the_assistant_revokes_the_refresh_tokens_and_keeps_403_for_the_access_token(
    client, app, persona, grupo, usar, quitar
):
    _, tokens = conectar(client, app.client_id)
    quitar(persona, grupo, usar)
    assert _vivos(persona) == 0
    assert rechazo(tokens["access_token"]) == SIN_ACCESO
    _invalid_grant(refrescar(client, app.client_id, tokens["refresh_token"]))
    assert rechazo(tokens["access_token"]) == SIN_ACCESO  # the refused refresh revoked nothing


def test_losing_a_direct_permission_revokes_the_refresh_tokens(client, app, usar):
    persona = UserFactory(username="dana_oauth", permisos=["mcp.asistente.usar"])
    client.force_login(persona)
    _, tokens = conectar(client, app.client_id)
    persona.user_permissions.remove(usar)
    assert _vivos(persona) == 0
    _invalid_grant(refrescar(client, app.client_id, tokens["refresh_token"]))


def test_blocking_a_person_revokes_their_refresh_tokens_and_keeps_403_until_expiry(
    client, app, persona
):
    _, tokens = conectar(client, app.client_id)
    _bloquear(persona)
    assert _vivos(persona) == 0
    assert rechazo(tokens["access_token"]) == SIN_ACCESO
    _invalid_grant(refrescar(client, app.client_id, tokens["refresh_token"]))
    assert rechazo(tokens["access_token"]) == SIN_ACCESO


def test_a_reactivated_person_does_not_revive_the_old_connection(client, app, persona):
    _, tokens = conectar(client, app.client_id)
    _bloquear(persona)
    persona.is_active = True
    persona.save()
    _invalid_grant(refrescar(client, app.client_id, tokens["refresh_token"]))


def test_another_persons_connection_is_left_alone(client, app, persona, grupo):
    otra = UserFactory(username="eva_oauth")
    otra.groups.add(grupo)
    client.force_login(otra)
    _, tokens = conectar(client, app.client_id)
    client.force_login(persona)
    conectar(client, app.client_id)
    _bloquear(persona)
    assert _vivos(otra) == 1
    assert refrescar(client, app.client_id, tokens["refresh_token"]).status_code == 200


def test_signing_in_or_saving_a_person_who_may_use_the_assistant_revokes_nothing(
    client, app, persona
):
    _, tokens = conectar(client, app.client_id)
    persona.first_name = "Beatriz"
    persona.save()
    assert _vivos(persona) == 1
    assert refrescar(client, app.client_id, tokens["refresh_token"]).status_code == 200


def test_the_refresh_is_refused_to_a_person_blocked_without_signals(client, app, persona):
    # A bulk update sends no signal: the token endpoint asks about the person itself.
    _, tokens = conectar(client, app.client_id)
    User.objects.filter(pk=persona.pk).update(is_active=False)
    assert _vivos(persona) == 1
    _invalid_grant(refrescar(client, app.client_id, tokens["refresh_token"]))
    assert rechazo(tokens["access_token"]) == SIN_ACCESO  # not revoked by the refusal either
