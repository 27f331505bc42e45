"""The OAuth revocations hold within the cache-coherence bound even when the cache failed while
they were saved (the first issue's cache-hang tests, tests/hub/test_coherencia.py, whose
fixtures these reuse): a client disabled, a person's connection ended ("Desconectar"), OAuth
connections switched off. Each change is made by "another process" with the cache hung or
unwritable; once it is back and the bound has passed, the MCP endpoint refuses the access token."""

from __future__ import annotations

import pytest

from apps.autorizacion import services
from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.coherencia import cambiar_con_la_cache_fallando
from tests.factories import UserFactory
from tests.mcp_cliente import OAUTH_INVALIDO, ajustar, identificar, rechazo

pytestmark = pytest.mark.django_db


@pytest.fixture
def conexion():
    persona = UserFactory(username="ana_coherencia_oauth", permisos=["mcp.asistente.usar"])
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(persona, app)
    for _ in range(2):  # the second lookup is served by the cache
        assert identificar(secreto).oauth.aplicacion == app
    return persona, app, secreto


def test_a_client_disabled_while_the_cache_fails_stops_its_tokens_within_the_bound(
    cache_que_falla, reloj, otro_proceso, conexion
):
    _, app, secreto = conexion
    cambiar_con_la_cache_fallando(
        cache_que_falla, reloj, otro_proceso, lambda: services.deshabilitar(ids=[app.pk])
    )
    assert rechazo(secreto) == rechazo(secreto) == OAUTH_INVALIDO


def test_a_connection_ended_while_the_cache_fails_is_refused_within_the_bound(
    cache_que_falla, reloj, otro_proceso, conexion
):
    persona, app, secreto = conexion
    cambiar_con_la_cache_fallando(
        cache_que_falla,
        reloj,
        otro_proceso,
        lambda: services.desconectar(usuario_id=persona.pk, aplicacion_id=app.pk),
    )
    assert rechazo(secreto) == rechazo(secreto) == OAUTH_INVALIDO


def test_oauth_switched_off_while_the_cache_fails_is_refused_within_the_bound(
    cache_que_falla, reloj, otro_proceso, conexion
):
    _, _, secreto = conexion
    cambiar_con_la_cache_fallando(
        cache_que_falla, reloj, otro_proceso, lambda: ajustar(oauth_habilitado=False)
    )
    assert rechazo(secreto) == rechazo(secreto) == OAUTH_INVALIDO
