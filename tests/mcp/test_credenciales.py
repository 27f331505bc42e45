"""Each row of the credential table (docs/contrato.md): envelopes 400/401/403, never JSON-RPC."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from apps.mcp import rechazos
from apps.mcp.models import ClaveApi, TokenPersonal
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import URL, ajustar, llamar, rpc

pytestmark = pytest.mark.django_db


def _sobre(r, status: int, code: str) -> dict:
    assert r.status == status, r.http.content
    assert r.cuerpo["success"] is False
    assert r.cuerpo["error"]["code"] == code
    assert "jsonrpc" not in r.cuerpo
    return r.cuerpo


def _401(r, code: str) -> None:
    _sobre(r, 401, code)
    assert r.http["WWW-Authenticate"].startswith('Bearer realm="mcp"')


def _nombres(r) -> set[str]:
    return {t["name"] for t in r.resultado["tools"]}


# --- no credential, API key only ---------------------------------------------------------------


def test_no_credential_is_401_no_autenticado_with_www_authenticate(client, settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.example"
    r = rpc(client, "ping")
    _401(r, "NO_AUTENTICADO")
    assert r.http["WWW-Authenticate"] == (
        'Bearer realm="mcp", resource_metadata="https://hub.entidad.example'
        '/.well-known/oauth-protected-resource/mcp/api/mcp"'
    )


def test_credentials_in_the_query_string_are_ignored(client):
    _, secreto = nueva_clave()
    _, token = nuevo_token(UserFactory(permisos=["mcp.asistente.usar"]))
    r = client.post(
        f"{URL}?api_key={secreto}&X-MCP-Api-Key={secreto}&token={token}",
        data={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        content_type="application/json",
    )
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "NO_AUTENTICADO"


def test_api_key_alone_in_its_header_is_accepted(client, clave):
    assert rpc(client, "ping", **clave).resultado == {}


def test_api_key_alone_as_bearer_is_accepted(client):
    _, secreto = nueva_clave()
    assert rpc(client, "ping", Authorization=f"Bearer {secreto}").resultado == {}


def test_api_key_alone_gets_only_the_public_tools(client, clave, herramientas_prueba):
    assert _nombres(rpc(client, "tools/list", **clave)) & set(herramientas_prueba) == {
        "prueba_publica",
        "prueba_verificada",
    }


@pytest.mark.parametrize(
    "valor",
    [
        "sgiapi_noexiste",
        secretos.generar(PREFIJO_CLAVE),  # well formed, unknown
        "",
        "x" * 5000,
    ],
    # Stable ids: a random secret in an id makes xdist workers collect different tests.
    ids=["mal_formada", "bien_formada_desconocida", "vacia", "enorme"],
)
def test_an_invalid_api_key_is_401_api_key_invalida(client, valor):
    _401(rpc(client, "ping", **{"X-MCP-Api-Key": valor}), "API_KEY_INVALIDA")


def test_a_bad_checksum_is_refused_without_touching_the_database(
    client, django_assert_num_queries, monkeypatch
):
    clave, secreto = nueva_clave()
    alterado = secreto[:-1] + ("A" if secreto[-1] != "A" else "B")
    assert not secretos.bien_formado(alterado, PREFIJO_CLAVE)
    ClaveApi.objects.filter(pk=clave.pk).update(digest=secretos.huella(alterado))
    minuto = rechazos.minuto_actual()
    monkeypatch.setattr(rechazos, "minuto_actual", lambda: minuto)
    # Settings singletons now cached, and this minute's row of the refusals from here written
    # (apps.mcp.rechazos: one row per minute, address and code; then only the cache counts).
    _401(rpc(client, "ping", **{"X-MCP-Api-Key": alterado}), "API_KEY_INVALIDA")
    with django_assert_num_queries(0):
        _401(rpc(client, "ping", **{"X-MCP-Api-Key": alterado}), "API_KEY_INVALIDA")


def test_a_revoked_api_key_is_401(client):
    clave, secreto = nueva_clave()
    clave.revocado_en = timezone.now()
    clave.save()
    _401(rpc(client, "ping", **{"X-MCP-Api-Key": secreto}), "API_KEY_INVALIDA")


def test_an_expired_api_key_is_401_and_one_not_yet_expired_works(client):
    _, vencida = nueva_clave(vence=timezone.now() - timedelta(seconds=1))
    _401(rpc(client, "ping", **{"X-MCP-Api-Key": vencida}), "API_KEY_INVALIDA")
    _, vigente = nueva_clave(vence=timezone.now() + timedelta(days=1))
    assert rpc(client, "ping", **{"X-MCP-Api-Key": vigente}).resultado == {}


def test_two_different_api_keys_are_400_credencial_ambigua(client):
    _, una = nueva_clave()
    _, otra = nueva_clave()
    r = rpc(client, "ping", **{"X-MCP-Api-Key": una}, Authorization=f"Bearer {otra}")
    _sobre(r, 400, "CREDENCIAL_AMBIGUA")


def test_the_same_api_key_in_both_headers_is_not_ambiguous(client):
    _, una = nueva_clave()
    r = rpc(client, "ping", **{"X-MCP-Api-Key": una}, Authorization=f"Bearer {una}")
    assert r.resultado == {}


@pytest.mark.parametrize("valor", ["Basic dXN1YXJpbzpjbGF2ZQ==", "Bearer", "Token abc"])
def test_an_authorization_header_that_is_not_bearer_is_401(client, valor):
    _401(rpc(client, "ping", Authorization=valor), "NO_AUTENTICADO")


# --- API key + personal token ------------------------------------------------------------------


def test_api_key_and_token_act_as_the_person(client, como_completo, herramientas_prueba):
    assert {"prueba_eco", "prueba_grupo"} <= _nombres(rpc(client, "tools/list", **como_completo))


@pytest.mark.parametrize("caso", ["desconocido", "mal_formado", "revocado", "vencido", "vacio"])
def test_an_invalid_user_token_is_401_and_never_falls_back_to_the_key(client, clave, caso):
    usuario = UserFactory(permisos=["mcp.asistente.usar"])
    valores = {
        "desconocido": secretos.generar(PREFIJO_TOKEN),
        "mal_formado": "sgimcp_corto",
        "revocado": nuevo_token(usuario, revocado=True)[1],
        "vencido": nuevo_token(usuario, dias=-1)[1],
        "vacio": "",
    }
    r = rpc(client, "ping", **clave, **{"X-MCP-User-Token": valores[caso]})
    _401(r, "TOKEN_MCP_INVALIDO")
    assert 'error="invalid_token"' in r.http["WWW-Authenticate"]


def test_an_invalid_user_bearer_with_a_valid_key_is_401(client, clave):
    r = rpc(client, "ping", **clave, Authorization="Bearer sgimcp_inventado")
    _401(r, "TOKEN_MCP_INVALIDO")


def test_two_different_user_credentials_are_400_credencial_ambigua(client, completo, clave):
    _, uno = nuevo_token(completo)
    _, otro = nuevo_token(completo)
    r = rpc(client, "ping", **clave, **{"X-MCP-User-Token": uno}, Authorization=f"Bearer {otro}")
    _sobre(r, 400, "CREDENCIAL_AMBIGUA")


def test_the_same_token_in_both_user_headers_is_not_ambiguous(client, completo):
    _, uno = nuevo_token(completo)
    r = rpc(client, "ping", **{"X-MCP-User-Token": uno}, Authorization=f"Bearer {uno}")
    assert r.resultado == {}


# The WSGI server joins a repeated header into one value with commas (RFC 9110 section 5.3).


def test_two_different_tokens_in_repeated_user_token_headers_are_400_credencial_ambigua(
    client, completo, clave
):
    _, uno = nuevo_token(completo)
    _, otro = nuevo_token(completo)
    r = rpc(client, "ping", **clave, **{"X-MCP-User-Token": f"{uno},{otro}"})
    _sobre(r, 400, "CREDENCIAL_AMBIGUA")
    # Whatever the second value is: a valid token next to garbage is still two credentials.
    r = rpc(client, "ping", **clave, **{"X-MCP-User-Token": f"{uno}, sgimcp_otro"})
    _sobre(r, 400, "CREDENCIAL_AMBIGUA")


def test_two_different_keys_in_repeated_api_key_headers_are_400_credencial_ambigua(client):
    _, una = nueva_clave()
    _, otra = nueva_clave()
    _sobre(rpc(client, "ping", **{"X-MCP-Api-Key": f"{una}, {otra}"}), 400, "CREDENCIAL_AMBIGUA")


def test_two_bearers_in_repeated_authorization_headers_are_400_credencial_ambigua(client):
    _, una = nueva_clave()
    _, otra = nueva_clave()
    r = rpc(client, "ping", Authorization=f"Bearer {una}, Bearer {otra}")
    _sobre(r, 400, "CREDENCIAL_AMBIGUA")


def test_the_same_value_repeated_in_one_header_is_not_ambiguous(client, completo):
    _, uno = nuevo_token(completo)
    _, clave = nueva_clave()
    cabeceras = {"X-MCP-User-Token": f"{uno}, {uno}", "X-MCP-Api-Key": f"{clave},{clave}"}
    assert rpc(client, "ping", **cabeceras).resultado == {}
    assert rpc(client, "ping", Authorization=f"Bearer {clave}, Bearer {clave}").resultado == {}


def test_a_blocked_person_is_403_sin_permiso(client, clave):
    bloqueado = UserFactory(permisos=["mcp.asistente.usar"], is_active=False)
    _, token = nuevo_token(bloqueado)
    _sobre(rpc(client, "ping", **clave, **{"X-MCP-User-Token": token}), 403, "SIN_PERMISO")


def test_a_person_without_assistant_access_is_403_sin_permiso(client, clave):
    sin_asistente = UserFactory(permisos=["cuentas.view_area"])
    _, token = nuevo_token(sin_asistente)
    _sobre(rpc(client, "ping", **clave, **{"X-MCP-User-Token": token}), 403, "SIN_PERMISO")


def test_a_token_acts_with_the_persons_current_permissions(
    client, completo, como_completo, herramientas_prueba
):
    assert llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo).estructura
    completo.user_permissions.remove(*completo.user_permissions.filter(codename="view_area"))
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "SIN_PERMISO"


# --- personal token alone ----------------------------------------------------------------------


def test_a_token_alone_works_when_the_organization_allows_it(client, token_completo):
    assert rpc(client, "ping", **{"X-MCP-User-Token": token_completo}).resultado == {}
    assert rpc(client, "ping", Authorization=f"Bearer {token_completo}").resultado == {}


def test_a_token_alone_is_401_asking_for_the_key_when_not_allowed(client, token_completo):
    ajustar(permitir_token_solo=False)
    r = rpc(client, "ping", **{"X-MCP-User-Token": token_completo})
    _401(r, "NO_AUTENTICADO")
    assert "X-MCP-Api-Key" in r.cuerpo["error"]["detalle"]


def test_a_token_with_a_key_works_when_tokens_alone_are_not_allowed(client, como_completo):
    ajustar(permitir_token_solo=False)
    assert rpc(client, "ping", **como_completo).resultado == {}


# --- secrets and last use ----------------------------------------------------------------------


def test_secrets_never_appear_in_answers_or_logs(client, caplog, completo):
    caplog.set_level(logging.DEBUG)
    _, clave = nueva_clave()
    token = nuevo_token(completo, revocado=True)[1]
    respuestas = [
        rpc(client, "ping", **{"X-MCP-Api-Key": clave, "X-MCP-User-Token": token}),
        rpc(client, "ping", **{"X-MCP-Api-Key": clave + "x"}),
        rpc(client, "ping", **{"X-MCP-Api-Key": clave}, Authorization=f"Bearer {clave}x"),
    ]
    for r in respuestas:
        assert clave not in r.http.content.decode()
        assert token not in r.http.content.decode()
    assert clave not in caplog.text and token not in caplog.text


def test_only_the_digest_and_a_short_prefix_are_stored(completo):
    token, secreto = nuevo_token(completo)
    token.refresh_from_db()
    assert token.digest == secretos.huella(secreto) and len(token.digest) == 64
    assert token.prefijo == secreto[:13] and secreto.startswith(token.prefijo)
    assert secreto not in str(TokenPersonal.objects.filter(pk=token.pk).values().get())


def test_personal_tokens_have_the_documented_format():
    secreto = secretos.generar(PREFIJO_TOKEN)
    assert secreto.startswith("sgimcp_") and len(secreto) == 7 + 32 + 6
    assert secretos.bien_formado(secreto, PREFIJO_TOKEN)
    assert not secretos.bien_formado(secreto, PREFIJO_CLAVE)
    cuerpo = secreto[:-6]
    assert secreto[-6:] == secretos.chequeo(cuerpo)
    for i in range(7, len(secreto)):
        cambiado = secreto[:i] + ("a" if secreto[i] != "a" else "b") + secreto[i + 1 :]
        assert not secretos.bien_formado(cambiado, PREFIJO_TOKEN)


def test_last_use_of_a_token_records_time_and_ip_at_most_once_a_minute(client, completo, clave):
    token, secreto = nuevo_token(completo)
    cabeceras = {**clave, "X-MCP-User-Token": secreto}
    rpc(client, "ping", REMOTE_ADDR="10.1.1.1", **cabeceras)
    token.refresh_from_db()
    primero = token.ultimo_uso
    assert primero is not None and token.ultima_ip == "10.1.1.1"
    rpc(client, "ping", REMOTE_ADDR="10.1.1.1", **cabeceras)
    token.refresh_from_db()
    assert token.ultimo_uso == primero  # within the minute: no write
    rpc(client, "ping", REMOTE_ADDR="10.2.2.2", **cabeceras)
    token.refresh_from_db()
    assert token.ultima_ip == "10.2.2.2"  # a new IP is recorded at once
    # A minute passes: the shared mark of the last write expires (the row may come from cache).
    TokenPersonal.objects.filter(pk=token.pk).update(ultimo_uso=primero - timedelta(minutes=2))
    cache.delete(f"mcp:uso:t{token.pk}:10.2.2.2")
    rpc(client, "ping", REMOTE_ADDR="10.2.2.2", **cabeceras)
    token.refresh_from_db()
    assert token.ultimo_uso > primero


def test_last_use_of_an_api_key_is_recorded(client):
    clave, secreto = nueva_clave()
    assert clave.ultimo_uso is None
    rpc(client, "ping", **{"X-MCP-Api-Key": secreto})
    clave.refresh_from_db()
    assert clave.ultimo_uso is not None


def test_repeated_calls_within_the_minute_do_not_write_last_use(
    client, completo, clave, django_assert_num_queries
):
    _, secreto = nuevo_token(completo)
    cabeceras = {**clave, "X-MCP-User-Token": secreto}
    rpc(client, "ping", **cabeceras)
    # settings, key, token and the person's permissions all come from the cache (issue 16)
    with django_assert_num_queries(0):
        assert rpc(client, "ping", **cabeceras).resultado == {}


def test_identificar_works_on_a_request_that_did_not_pass_the_middleware(rf, completo):
    """The SDK peer of `make bench` and bench.consultas build their requests by hand: the
    address is decided where it was not yet (hub.http.ip), never an AttributeError."""
    from apps.mcp import credenciales
    from apps.mcp.models import AjustesAsistente

    _, secreto = nuevo_token(completo)
    request = rf.post(URL, HTTP_X_MCP_USER_TOKEN=secreto, REMOTE_ADDR="198.51.100.7")
    identidad = credenciales.identificar(request, AjustesAsistente.cargar())
    assert identidad.usuario == completo
    assert identidad.ip == "198.51.100.7"


def test_each_kind_reads_back_only_its_own_credential_ids():
    """The ids `Identidad.credencial_id` binds into confirmations (apps.mcp.confirmacion asks the
    kind whose id it is whether it still stands)."""
    from apps.mcp.credenciales import TIPOS

    assert [tipo.credencial_id(7) for tipo in TIPOS] == ["t7", "o7", "k7"]
    for tipo in TIPOS:
        assert [otro.id_de(tipo.credencial_id(42)) for otro in TIPOS] == [
            42 if otro is tipo else None for otro in TIPOS
        ]
    assert [
        tipo.id_de(valor) for valor in ("", "t", "t-1", "t1a", "t\u0661") for tipo in TIPOS
    ] == [None] * 15
