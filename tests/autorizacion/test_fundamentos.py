"""The OAuth foundation: the hub's own client model, token formats stored as digests only, and
whom the MCP endpoint takes an access token for (its cached lookup, through the credential
table as the endpoint runs it)."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken, get_application_model

from apps.autorizacion import accesos, tokens
from apps.autorizacion.models import Aplicacion
from apps.mcp.models import AjustesAsistente
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.factories import UserFactory
from tests.mcp_cliente import OAUTH_INVALIDO, identificar, rechazo

pytestmark = pytest.mark.django_db

SIN_ACCESO = (403, "SIN_PERMISO", "Su usuario no tiene acceso al asistente.")


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
    assert not secretos.bien_formado(acceso, PREFIJO_TOKEN)
    assert not tokens.bien_formado(secretos.generar(PREFIJO_TOKEN))
    assert not tokens.bien_formado(secretos.generar(PREFIJO_CLAVE))


def test_tokens_are_stored_only_as_digests(persona):
    fila, secreto, refresco = emitir_token(persona, nueva_aplicacion())
    fila.refresh_from_db()
    assert fila.token == "" and fila.token_checksum == secretos.huella(secreto)
    assert fila.refresh_token.token == ""
    assert fila.refresh_token.token_checksum == secretos.huella(refresco)


def test_the_endpoint_takes_a_token_for_its_person_client_and_scopes(persona):
    app = nueva_aplicacion("Claude")
    fila, secreto, _ = emitir_token(persona, app, alcances="asistente:leer")
    identidad = identificar(secreto)
    hallado = identidad.oauth
    assert identidad.usuario == persona and hallado.aplicacion == app
    assert hallado.alcances == {"asistente:leer"} and not identidad.puede_escribir
    assert hallado.token_id == fila.pk and identidad.credencial_id == f"o{fila.pk}"
    assert hallado.para_recurso("http://127.0.0.1:8000/mcp/api/mcp")
    assert not hallado.para_recurso("https://otro.example/mcp")


def test_a_warm_lookup_runs_no_sql(persona, django_assert_num_queries):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion())
    assert identificar(secreto).usuario == persona  # builds the identity, notes last use
    with django_assert_num_queries(0):
        identidad = identificar(secreto)
    assert identidad.usuario.has_perm("mcp.asistente.usar")


@pytest.mark.parametrize(
    ("estropear", "detalle"),
    [
        pytest.param(
            lambda s: s[:-1] + ("A" if s[-1] != "A" else "B"), OAUTH_INVALIDO[2], id="checksum"
        ),
        pytest.param(lambda s: tokens.generar_acceso(), OAUTH_INVALIDO[2], id="unknown"),
        # Routed to the personal token's kind by its prefix, and refused there.
        pytest.param(
            lambda s: s.replace("sgioat_", "sgimcp_"),
            "El token personal no es válido, venció o fue revocado.",
            id="other-prefix",
        ),
    ],
)
def test_a_malformed_or_unknown_token_is_401(persona, estropear, detalle):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion())
    assert rechazo(estropear(secreto)) == (401, "TOKEN_MCP_INVALIDO", detalle)


def test_an_expired_token_is_401(persona):
    _, secreto, _ = emitir_token(persona, nueva_aplicacion(), segundos=-1)
    assert rechazo(secreto) == OAUTH_INVALIDO


def test_a_disabled_client_stops_its_cached_tokens(persona):
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(persona, app)
    assert rechazo(secreto) is None
    app.deshabilitada = True
    app.save()
    assert rechazo(secreto) == OAUTH_INVALIDO


def test_oauth_switched_off_or_verified_only_stops_tokens_at_once(persona):
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(persona, app)
    assert rechazo(secreto) is None
    ajustes = AjustesAsistente.fila()
    ajustes.oauth_solo_verificadas = True
    ajustes.save()
    assert rechazo(secreto) == OAUTH_INVALIDO
    Aplicacion.objects.filter(pk=app.pk).update(verificada=True)
    accesos.olvidar()
    assert rechazo(secreto) is None
    ajustes.oauth_habilitado = False
    ajustes.save()
    assert rechazo(secreto) == OAUTH_INVALIDO


def test_a_revoked_token_is_401_and_a_blocked_persons_token_is_403(persona):
    fila, secreto, _ = emitir_token(persona, nueva_aplicacion())
    _, otro, _ = emitir_token(persona, nueva_aplicacion("Otro"))
    assert rechazo(secreto) is None and rechazo(otro) is None
    AccessToken.objects.get(pk=fila.pk).revoke()
    assert rechazo(secreto) == OAUTH_INVALIDO
    persona.is_active = False
    persona.save()
    # The token still names its person, who may not use the assistant (docs/contrato.md).
    assert rechazo(otro) == SIN_ACCESO


def test_a_group_change_of_someone_with_only_oauth_tokens_drops_their_cached_permissions(
    persona,
):
    from django.contrib.auth.models import Group, Permission

    sin = UserFactory(username="sin_token_personal")
    _, secreto, _ = emitir_token(sin, nueva_aplicacion())
    assert rechazo(secreto) == SIN_ACCESO
    grupo = Group.objects.create(name="Asistente")
    grupo.permissions.add(
        Permission.objects.get(content_type__app_label="mcp", codename="asistente.usar")
    )
    sin.groups.add(grupo)
    assert identificar(secreto).usuario == sin


def test_client_names_are_stored_without_invisible_characters():
    app = nueva_aplicacion("Cla\u202eude\u200b\n  Desktop\x07")
    app.refresh_from_db()
    assert app.name == "Claude Desktop" and str(app) == "Claude Desktop"
