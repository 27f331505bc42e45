"""The OAuth access token as a user credential of the MCP endpoint (issue 25, item 6): the same
person, permissions, limits, audit and two-step writes as a personal token, its own switches,
and every refusal an envelope with its code (401s pointing at the resource metadata)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from apps.mcp.models import RegistroAuditoria
from hub.herramientas.registro import registro
from tests.factories import UserFactory, permiso
from tests.mcp.factories import nueva_aplicacion, nueva_clave, nuevo_token, nuevo_token_oauth
from tests.mcp_cliente import ajustar, llamar, rpc

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
PUBLICA = "https://hub.entidad.example"
TOKEN_MALO = (
    'Bearer realm="mcp", error="invalid_token", resource_metadata="'
    f'{PUBLICA}/.well-known/oauth-protected-resource/mcp/api/mcp"'
)
ESCRITURAS = {h.nombre for h in registro if h.escritura}


@pytest.fixture(autouse=True)
def publica(settings):
    settings.HUB_URL_PUBLICA = PUBLICA


@pytest.fixture
def persona():
    return UserFactory(
        username="persona_oauth",
        permisos=[USAR, "solicitudes.radicar", "auth.add_group", "cuentas.view_area"],
    )


@pytest.fixture
def oauth(persona):
    token, secreto = nuevo_token_oauth(persona)
    return token, {"Authorization": f"Bearer {secreto}"}


def _nombres(r) -> set[str]:
    return {h["name"] for h in r.resultado["tools"]}


def _401(r, detalle: str | None = None) -> None:
    assert r.status == 401, r.http.content
    assert r.cuerpo["error"]["code"] == "TOKEN_MCP_INVALIDO"
    assert r.http["WWW-Authenticate"] == TOKEN_MALO
    if detalle is not None:
        assert detalle in r.cuerpo["error"]["detalle"]


# --- who it is -----------------------------------------------------------------------------------


def test_the_tool_list_is_exactly_the_persons_list_with_a_personal_token(
    client, persona, oauth, herramientas_prueba
):
    _token, cabeceras = oauth
    _, personal = nuevo_token(persona)
    con_oauth = _nombres(rpc(client, "tools/list", **cabeceras))
    assert con_oauth == _nombres(rpc(client, "tools/list", **{"X-MCP-User-Token": personal}))
    assert "prueba_grupo" in con_oauth and con_oauth & ESCRITURAS


def test_the_personal_token_only_switch_does_not_block_an_oauth_token(client, oauth):
    _token, cabeceras = oauth
    ajustar(permitir_token_solo=False)
    assert rpc(client, "ping", **cabeceras).resultado == {}


def test_without_the_write_scope_write_tools_are_not_listed(client, persona, herramientas_prueba):
    _, secreto = nuevo_token_oauth(persona, alcances="asistente:leer")
    nombres = _nombres(rpc(client, "tools/list", Authorization=f"Bearer {secreto}"))
    assert "prueba_grupo" not in nombres
    assert not nombres & ESCRITURAS
    assert "buscar_documento" in nombres


def test_calling_a_write_tool_without_the_write_scope_is_sin_permiso_and_writes_nothing(
    client, persona, herramientas_prueba
):
    _, secreto = nuevo_token_oauth(persona, alcances="asistente:leer")
    r = llamar(client, "prueba_grupo", {"nombre": "Comité"}, Authorization=f"Bearer {secreto}")
    assert r.status == 200
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "SIN_PERMISO"
    assert "asistente:escribir" in r.resultado["content"][0]["text"]
    assert not Group.objects.filter(name="Comité").exists()


def test_a_write_with_the_write_scope_takes_the_two_steps(client, oauth, herramientas_prueba):
    _token, cabeceras = oauth
    previa = llamar(client, "prueba_grupo", {"nombre": "Comité OAuth"}, **cabeceras)
    assert previa.resultado["isError"] is False
    assert not Group.objects.filter(name="Comité OAuth").exists()
    argumentos = {
        "nombre": "Comité OAuth",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    r = llamar(client, "prueba_grupo", argumentos, **cabeceras)
    assert r.resultado["isError"] is False, r.estructura
    assert Group.objects.filter(name="Comité OAuth").count() == 1


def test_a_confirmation_issued_to_the_oauth_token_is_foreign_to_the_personal_token(
    client, persona, oauth, herramientas_prueba
):
    _token, cabeceras = oauth
    _, personal = nuevo_token(persona)
    previa = llamar(client, "prueba_grupo", {"nombre": "Comité"}, **cabeceras)
    argumentos = {
        "nombre": "Comité",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    r = llamar(client, "prueba_grupo", argumentos, **{"X-MCP-User-Token": personal})
    assert r.estructura["codigo"] == "CONFIRMACION_AJENA"
    assert not Group.objects.filter(name="Comité").exists()


def test_a_confirmation_from_a_token_since_refreshed_away_is_sesion_expirada(
    client, persona, oauth, herramientas_prueba
):
    token, cabeceras = oauth
    previa = llamar(client, "prueba_grupo", {"nombre": "Comité"}, **cabeceras)
    token.revoke()  # as a refresh does to the access token it replaces
    _nuevo, secreto = nuevo_token_oauth(persona, aplicacion=token.application)
    argumentos = {
        "nombre": "Comité",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    r = llamar(client, "prueba_grupo", argumentos, Authorization=f"Bearer {secreto}")
    assert r.estructura["codigo"] == "SESION_EXPIRADA"
    assert not Group.objects.filter(name="Comité").exists()


def _confirmar_con_otro_token(client, persona, cabeceras, cambiar) -> str:
    """Preview with `cabeceras`, `cambiar()` the step-1 token, confirm with a new OAuth token of
    the same person and client: the confirmation's tool error code."""
    previa = llamar(client, "prueba_grupo", {"nombre": "Comité"}, **cabeceras)
    cambiar()
    _nuevo, secreto = nuevo_token_oauth(persona)
    argumentos = {
        "nombre": "Comité",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    r = llamar(client, "prueba_grupo", argumentos, Authorization=f"Bearer {secreto}")
    assert not Group.objects.filter(name="Comité").exists()
    return r.estructura["codigo"]


def test_a_confirmation_from_a_token_since_expired_is_sesion_expirada(
    client, persona, oauth, herramientas_prueba
):
    token, cabeceras = oauth

    def vencer() -> None:
        type(token).objects.filter(pk=token.pk).update(
            expires=timezone.now() - timedelta(seconds=1)
        )

    assert _confirmar_con_otro_token(client, persona, cabeceras, vencer) == "SESION_EXPIRADA"


def test_a_confirmation_from_another_oauth_token_still_in_force_is_ajena(
    client, persona, oauth, herramientas_prueba
):
    _token, cabeceras = oauth
    assert _confirmar_con_otro_token(client, persona, cabeceras, lambda: None) == (
        "CONFIRMACION_AJENA"
    )


def test_the_per_user_limit_counts_oauth_and_personal_calls_together(client, persona, oauth):
    _token, cabeceras = oauth
    _, personal = nuevo_token(persona)
    ajustar(usuario_por_minuto=2)
    assert rpc(client, "ping", **{"X-MCP-User-Token": personal}).status == 200
    assert rpc(client, "ping", **cabeceras).status == 200
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (429, "RATE_LIMIT")
    assert int(r.http["Retry-After"]) > 0


def test_each_tool_call_is_audited_with_the_person_and_the_client(
    client, persona, herramientas_prueba
):
    aplicacion = nueva_aplicacion("Claude")
    _token, secreto = nuevo_token_oauth(persona, aplicacion=aplicacion)
    llamar(client, "prueba_eco", {"texto": "hola"}, Authorization=f"Bearer {secreto}")
    fila = RegistroAuditoria.objects.get()
    assert fila.usuario == persona
    assert fila.clave is None
    assert fila.credencial == RegistroAuditoria.TipoCredencial.OAUTH == "oauth"
    assert (fila.cliente_id, fila.cliente_nombre) == (aplicacion.pk, "Claude")
    assert fila.token_prefijo == ""


def test_an_oauth_token_pasted_into_an_argument_is_not_kept_in_the_audit(
    client, oauth, herramientas_prueba
):
    _token, cabeceras = oauth
    secreto = cabeceras["Authorization"].removeprefix("Bearer ")
    llamar(client, "prueba_eco", {"texto": secreto[:40]}, **cabeceras)
    fila = RegistroAuditoria.objects.get()
    assert fila.argumentos["texto"] == "sgioat_[oculto]"


def test_a_warm_ping_with_an_oauth_token_runs_no_sql(client, oauth, django_assert_num_queries):
    _token, cabeceras = oauth
    assert rpc(client, "ping", **cabeceras).status == 200  # builds the identity, notes last use
    with django_assert_num_queries(0):
        assert rpc(client, "ping", **cabeceras).status == 200
        assert rpc(client, "ping", **cabeceras).status == 200


def test_a_warm_tool_list_with_an_oauth_token_runs_no_sql(client, oauth, django_assert_num_queries):
    _token, cabeceras = oauth
    antes = _nombres(rpc(client, "tools/list", **cabeceras))
    with django_assert_num_queries(0):
        assert _nombres(rpc(client, "tools/list", **cabeceras)) == antes


def test_last_use_is_noted_on_the_token_and_the_client(client, oauth):
    token, cabeceras = oauth
    antes = token.updated
    rpc(client, "ping", **cabeceras)
    token.refresh_from_db()
    token.application.refresh_from_db()
    assert token.updated > antes
    assert token.application.ultimo_uso is not None


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "valor",
    [
        "sgioat_",
        "sgioat_noexiste",
        "sgioat_" + "A" * 38,  # well shaped, wrong checksum
    ],
)
def test_a_malformed_oauth_token_is_401_and_never_falls_back(client, valor):
    _401(rpc(client, "ping", Authorization=f"Bearer {valor}"))


def test_an_unknown_well_formed_oauth_token_is_401(client):
    from apps.autorizacion import tokens

    _401(rpc(client, "ping", Authorization=f"Bearer {tokens.generar_acceso()}"))


def test_an_expired_oauth_token_is_401(client, persona):
    _, secreto = nuevo_token_oauth(persona, segundos=-1)
    _401(rpc(client, "ping", Authorization=f"Bearer {secreto}"))


def test_a_revoked_oauth_token_is_401_at_once(client, oauth):
    token, cabeceras = oauth
    assert rpc(client, "ping", **cabeceras).status == 200
    token.revoke()
    _401(rpc(client, "ping", **cabeceras))


def test_a_token_issued_for_another_resource_is_401_invalid_token(client, persona):
    _, secreto = nuevo_token_oauth(persona, recursos=["https://otro.example/api"])
    _401(rpc(client, "ping", Authorization=f"Bearer {secreto}"), "otro recurso")


def test_a_disabled_client_stops_its_tokens_at_once(client, oauth):
    token, cabeceras = oauth
    assert rpc(client, "ping", **cabeceras).status == 200
    token.application.deshabilitada = True
    token.application.save()
    _401(rpc(client, "ping", **cabeceras))


def test_oauth_switched_off_stops_every_token_at_once(client, oauth):
    _token, cabeceras = oauth
    assert rpc(client, "ping", **cabeceras).status == 200
    ajustar(oauth_habilitado=False)
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")
    # Issue 35: with OAuth off, the challenge points to no OAuth metadata.
    assert r.http["WWW-Authenticate"] == 'Bearer realm="mcp", error="invalid_token"'
    ajustar(oauth_habilitado=True)
    assert rpc(client, "ping", **cabeceras).status == 200


def test_only_verified_clients_when_the_administrator_says_so(client, persona):
    _, sin_verificar = nuevo_token_oauth(persona, aplicacion=nueva_aplicacion("Desconocida"))
    _, verificada = nuevo_token_oauth(
        persona, aplicacion=nueva_aplicacion("Conocida", verificada=True)
    )
    ajustar(oauth_solo_verificadas=True)
    _401(rpc(client, "ping", Authorization=f"Bearer {sin_verificar}"))
    assert rpc(client, "ping", Authorization=f"Bearer {verificada}").status == 200


def test_a_person_without_assistant_access_is_403_sin_permiso(client, persona, oauth):
    _token, cabeceras = oauth
    persona.user_permissions.remove(permiso(USAR))
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")


def test_a_blocked_person_is_refused_at_once_with_403_sin_permiso(client, persona, oauth):
    """As with a personal token (docs/contrato.md): the token is good, the person may not use it."""
    _token, cabeceras = oauth
    assert rpc(client, "ping", **cabeceras).status == 200
    persona.is_active = False
    persona.save()
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")
    assert "WWW-Authenticate" not in r.http


def _ambigua(r) -> None:
    assert (r.status, r.cuerpo["error"]["code"]) == (400, "CREDENCIAL_AMBIGUA")
    assert "jsonrpc" not in r.cuerpo


def test_a_personal_token_beside_the_oauth_token_is_credencial_ambigua(client, persona, oauth):
    _token, cabeceras = oauth
    _, personal = nuevo_token(persona)
    _ambigua(rpc(client, "ping", **cabeceras, **{"X-MCP-User-Token": personal}))


def test_an_api_key_beside_the_oauth_token_is_credencial_ambigua(client, oauth):
    _token, cabeceras = oauth
    _, clave = nueva_clave()
    _ambigua(rpc(client, "ping", **cabeceras, **{"X-MCP-Api-Key": clave}))


def test_an_api_key_as_a_second_bearer_is_credencial_ambigua(client, oauth):
    _token, cabeceras = oauth
    _, clave = nueva_clave()
    _ambigua(rpc(client, "ping", Authorization=f"{cabeceras['Authorization']}, Bearer {clave}"))


def test_two_different_oauth_tokens_are_credencial_ambigua(client, persona, oauth):
    _token, cabeceras = oauth
    _, otro = nuevo_token_oauth(persona)
    _ambigua(rpc(client, "ping", Authorization=f"{cabeceras['Authorization']}, Bearer {otro}"))


def test_an_invalid_oauth_token_beside_a_valid_api_key_is_still_ambiguous(client):
    _, clave = nueva_clave()
    r = rpc(client, "ping", Authorization="Bearer sgioat_x", **{"X-MCP-Api-Key": clave})
    _ambigua(r)
