"""Who is calling, from the cache: a warm request resolves key, token and permissions with no
SQL, and every change that can alter who a credential is takes effect on the next request."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.mcp import services
from tests.factories import UserFactory, permiso
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import llamar, rpc
from tests.solicitudes.factories import radicar, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"


@pytest.fixture
def persona():
    return UserFactory(username="persona_cache", permisos=[USAR])


@pytest.fixture
def credenciales(persona):
    clave, secreto_clave = nueva_clave()
    token, secreto_token = nuevo_token(persona)
    cabeceras = {"X-MCP-Api-Key": secreto_clave, "X-MCP-User-Token": secreto_token}
    return clave, token, cabeceras


def _ping(client, cabeceras):
    return rpc(client, "ping", **cabeceras)


def _nombres(client, cabeceras) -> set[str]:
    return {h["name"] for h in rpc(client, "tools/list", **cabeceras).cuerpo["result"]["tools"]}


def test_a_warm_ping_with_key_and_token_runs_no_sql(
    client, credenciales, django_assert_num_queries
):
    _clave, _token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200  # builds the identity, notes the last use
    with django_assert_num_queries(0):
        assert _ping(client, cabeceras).status == 200
        assert _ping(client, cabeceras).status == 200


def test_a_warm_tool_list_knows_the_persons_permissions_without_sql(
    client, credenciales, django_assert_num_queries
):
    _clave, _token, cabeceras = credenciales
    antes = _nombres(client, cabeceras)
    with django_assert_num_queries(0):
        assert _nombres(client, cabeceras) == antes


def test_last_use_is_written_once_a_minute_even_from_a_cached_row(client, credenciales):
    _clave, token, cabeceras = credenciales
    _ping(client, cabeceras)
    token.refresh_from_db()
    primero = token.ultimo_uso
    assert primero is not None
    _ping(client, cabeceras)  # the cached row still says "never used": the shared mark decides
    token.refresh_from_db()
    assert token.ultimo_uso == primero


def test_a_token_revoked_by_its_owner_is_refused_at_once(client, credenciales, persona):
    _clave, token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200
    services.revocar_token_personal(usuario=persona, token_id=token.pk)
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")


def test_a_token_revoked_by_an_administrator_is_refused_at_once(client, credenciales):
    _clave, token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200
    services.revocar_tokens(ids=[token.pk])
    assert _ping(client, cabeceras).cuerpo["error"]["code"] == "TOKEN_MCP_INVALIDO"


def test_a_revoked_api_key_is_refused_at_once(client, credenciales):
    clave, _token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200
    services.revocar_claves(ids=[clave.pk])
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "API_KEY_INVALIDA")


def test_a_token_that_expires_is_refused_from_the_cached_row(client, persona, monkeypatch):
    _clave, secreto_clave = nueva_clave()
    token, secreto = nuevo_token(persona, dias=1)
    cabeceras = {"X-MCP-Api-Key": secreto_clave, "X-MCP-User-Token": secreto}
    assert _ping(client, cabeceras).status == 200
    despues = token.vence + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: despues)
    assert _ping(client, cabeceras).cuerpo["error"]["code"] == "TOKEN_MCP_INVALIDO"


def test_a_deactivated_person_is_refused_at_once(client, credenciales, persona):
    _clave, _token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200
    persona.is_active = False
    persona.save()
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")


def test_a_person_who_loses_the_assistant_permission_is_refused_at_once(
    client, credenciales, persona
):
    _clave, _token, cabeceras = credenciales
    assert _ping(client, cabeceras).status == 200
    persona.user_permissions.remove(permiso(USAR))
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")


def _miembro_del_grupo_asistente(client):
    """A person whose assistant access comes only from a group; already served once (cached)."""
    grupo = Group.objects.create(name="Asistente")
    grupo.permissions.add(permiso(USAR))
    miembro = UserFactory(username="miembro_cache")
    miembro.groups.add(grupo)
    cabeceras = {"X-MCP-Api-Key": nueva_clave()[1], "X-MCP-User-Token": nuevo_token(miembro)[1]}
    assert _ping(client, cabeceras).status == 200
    return grupo, miembro, cabeceras


def test_a_group_that_loses_the_permission_takes_access_from_its_members(client):
    grupo, _miembro, cabeceras = _miembro_del_grupo_asistente(client)
    grupo.permissions.remove(permiso(USAR))
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")


def test_a_person_taken_out_of_the_group_loses_access_at_once(client):
    grupo, miembro, cabeceras = _miembro_del_grupo_asistente(client)
    miembro.groups.remove(grupo)
    r = _ping(client, cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")


def test_a_permission_granted_shows_its_tool_at_once(client, credenciales, persona):
    _clave, _token, cabeceras = credenciales
    assert "mis_tareas" not in _nombres(client, cabeceras)
    persona.user_permissions.add(permiso("solicitudes.bandeja.ver"))
    assert "mis_tareas" in _nombres(client, cabeceras)


def test_signing_in_does_not_empty_the_cache(
    client, credenciales, persona, django_assert_num_queries
):
    _clave, _token, cabeceras = credenciales
    _ping(client, cabeceras)
    persona.last_login = timezone.now()
    persona.save(update_fields=["last_login"])
    with django_assert_num_queries(0):
        assert _ping(client, cabeceras).status == 200


def test_the_password_hash_never_reaches_the_cache(client, credenciales, persona):
    from django.core.cache import cache

    from apps.mcp import identidades

    _clave, token, cabeceras = credenciales
    _ping(client, cabeceras)
    entrada, _clave_generacion = identidades.claves(
        token.digest
    )  # the entry's key carries the seal
    _generacion, guardado = cache.get(entrada)
    assert guardado.usuario.pk == persona.pk
    assert "password" not in guardado.usuario.__dict__
    assert identidades.token(token.digest).usuario.has_perm(USAR)


def test_new_people_and_credentials_leave_the_cached_identities_alone(
    client, credenciales, django_assert_num_queries
):
    _clave, _token, cabeceras = credenciales
    _ping(client, cabeceras)
    otra = UserFactory(username="otra_persona", permisos=[USAR])
    nuevo_token(otra)
    nueva_clave()
    with django_assert_num_queries(0):
        assert _ping(client, cabeceras).status == 200


def test_a_warm_tool_call_reads_neither_credentials_nor_groups(client, credenciales, persona):
    persona.user_permissions.add(permiso("solicitudes.radicar"))
    persona.groups.add(Group.objects.create(name="Revisión"))
    solicitud = radicar(tipo_con_etapas(Group.objects.get(name="Revisión")), solicitante=persona)
    _clave, _token, cabeceras = credenciales
    argumentos = {"numero_radicado": solicitud.numero_radicado}
    assert llamar(client, "estado_solicitud", argumentos, **cabeceras).estructura["encontrado"]
    with CaptureQueriesContext(connection) as consultas:
        r = llamar(client, "estado_solicitud", argumentos, **cabeceras)
    assert r.estructura["numero_radicado"] == solicitud.numero_radicado
    tablas = " ".join(q["sql"] for q in consultas.captured_queries)
    for tabla in (
        "mcp_tokenpersonal",
        "mcp_claveapi",
        "cuentas_user_groups",
        "cuentas_user_user_permissions",
        "auth_group_permissions",
    ):
        assert tabla not in tablas
