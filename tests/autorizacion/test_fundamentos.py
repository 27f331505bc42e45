"""The OAuth foundation: the hub's own client model, token formats stored as digests only, and
the cached selector the MCP endpoint asks who an access token is."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken, get_application_model

from apps.autorizacion import accesos, tokens
from apps.autorizacion.models import Aplicacion
from apps.mcp import secretos
from apps.mcp.models import AjustesAsistente
from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def persona():
    return UserFactory(username="ana_oauth", permisos=["mcp.asistente.usar"])


def test_the_library_uses_the_hubs_own_client_model():
    assert get_application_model() is Aplicacion


def test_access_and_refresh_tokens_have_their_own_prefixes_and_a_checksum():
    acceso, refresco = tokens.generar_acceso(), tokens.generar_refresco()
    assert acceso.startswith("sgioat_") and refresco.startswith("sgiort_")
    assert tokens.bien_formado(acceso) and tokens.bien_formado(refresco, tokens.PREFIJO_REFRESCO)
    assert not tokens.bien_formado(acceso[:-1] + ("0" if acceso[-1] != "0" else "1"))
    # Never taken for a personal token or an API key, and the other way round.
    assert not secretos.bien_formado(acceso, secretos.PREFIJO_TOKEN)
    assert not tokens.bien_formado(secretos.generar(secretos.PREFIJO_TOKEN))
    assert not tokens.bien_formado(secretos.generar(secretos.PREFIJO_CLAVE))


def test_tokens_are_stored_only_as_digests(persona):
    fila, secreto, refresco = emitir_token(persona, nueva_aplicacion())
    fila.refresh_from_db()
    assert fila.token == "" and fila.token_checksum == secretos.huella(secreto)
    assert fila.refresh_token.token == ""
    assert fila.refresh_token.token_checksum == secretos.huella(refresco)


def test_the_selector_names_the_person_the_client_and_the_scopes(persona):
    app = nueva_aplicacion("Claude")
    fila, secreto, _ = emitir_token(persona, app, alcances="asistente:leer")
    hallado = accesos.acceso(secreto)
    assert hallado.usuario == persona and hallado.aplicacion == app
    assert hallado.alcances == {"asistente:leer"} and not hallado.puede_escribir
    assert hallado.token_id == fila.pk
    assert hallado.para_recurso("http://127.0.0.1:8000/mcp/api/mcp")
    assert not hallado.para_recurso("https://otro.example/mcp")


def test_a_warm_lookup_runs_no_sql(persona, django_assert_num_queries):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion())
    assert accesos.acceso(secreto) is not None
    with django_assert_num_queries(0):
        hallado = accesos.acceso(secreto)
    assert hallado.usuario.has_perm("mcp.asistente.usar")


@pytest.mark.parametrize(
    "estropear",
    [
        pytest.param(lambda s: s[:-1] + ("A" if s[-1] != "A" else "B"), id="checksum"),
        pytest.param(lambda s: tokens.generar_acceso(), id="unknown"),
        pytest.param(lambda s: s.replace("sgioat_", "sgimcp_"), id="other-prefix"),
    ],
)
def test_a_malformed_or_unknown_token_is_nobody(persona, estropear):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion())
    assert accesos.acceso(estropear(secreto)) is None


def test_an_expired_token_is_nobody(persona):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion(), segundos=-1)
    assert accesos.acceso(secreto) is None


def test_a_disabled_client_stops_its_cached_tokens(persona):
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(persona, app)
    assert accesos.acceso(secreto) is not None
    app.deshabilitada = True
    app.save()
    assert accesos.acceso(secreto) is None


def test_oauth_switched_off_or_verified_only_stops_tokens_at_once(persona):
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(persona, app)
    assert accesos.acceso(secreto) is not None
    ajustes = AjustesAsistente.fila()
    ajustes.oauth_solo_verificadas = True
    ajustes.save()
    assert accesos.acceso(secreto) is None
    Aplicacion.objects.filter(pk=app.pk).update(verificada=True)
    accesos.olvidar()
    assert accesos.acceso(secreto) is not None
    ajustes.oauth_habilitado = False
    ajustes.save()
    assert accesos.acceso(secreto) is None


def test_a_revoked_token_is_nobody_and_a_blocked_persons_token_names_them_blocked(persona):
    fila, secreto, _ = emitir_token(persona, nueva_aplicacion())
    _, otro, _ = emitir_token(persona, nueva_aplicacion("Otro"))
    assert accesos.acceso(secreto) is not None and accesos.acceso(otro) is not None
    AccessToken.objects.get(pk=fila.pk).revoke()
    assert accesos.acceso(secreto) is None
    persona.is_active = False
    persona.save()
    # The MCP endpoint answers it 403 SIN_PERMISO (tests/mcp/test_oauth_credencial.py).
    assert accesos.acceso(otro).usuario.is_active is False


def test_a_group_change_of_someone_with_only_oauth_tokens_drops_their_cached_permissions(
    persona,
):
    from django.contrib.auth.models import Group, Permission

    sin = UserFactory(username="sin_token_personal")
    _, secreto, _ = emitir_token(sin, nueva_aplicacion())
    assert not accesos.acceso(secreto).usuario.has_perm("mcp.asistente.usar")
    grupo = Group.objects.create(name="Asistente")
    grupo.permissions.add(
        Permission.objects.get(content_type__app_label="mcp", codename="asistente.usar")
    )
    sin.groups.add(grupo)
    assert accesos.acceso(secreto).usuario.has_perm("mcp.asistente.usar")


def test_client_names_are_stored_without_invisible_characters():
    app = nueva_aplicacion("Cla\u202eude\u200b\n  Desktop\x07")
    app.refresh_from_db()
    assert app.name == "Claude Desktop" and str(app) == "Claude Desktop"
