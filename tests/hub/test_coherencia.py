"""The cache is never more authoritative than the database: a change saved while the cache is hung
(a redis-server of the test's own, stopped with SIGSTOP) or while the file cache cannot be written
holds within the stated bound once the cache is back, for every kind of change an administrator
or a person makes: the write switch, a personal token or an API key revoked, a person blocked or
without assistant access, an OAuth client disabled, an application disconnected by its person,
OAuth connections switched off, the brand, a signature annulled.

Each change is made by "another process": this one keeps the reading of the database it had
before the change (hub.cache.coherencia's state), as a worker that did not make the change would,
and
its clock is moved forward by the bound instead of sleeping."""

from __future__ import annotations

import os

import pytest
import redis
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.firmas import services as firmas
from apps.marca.services import actualizar_marca
from apps.mcp import services as mcp
from hub.cache import coherencia
from hub.herramientas.registro import registro
from tests.coherencia import cambiar_con_la_cache_fallando
from tests.factories import UserFactory, permiso
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import ajustar, rpc
from tests.presupuesto.factories import cdp_expedido, celda

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
VERIFICAR = "/presupuesto/api/v1/firmas/verificar/"
ESCRITURAS = {h.nombre for h in registro if h.escritura}


# --- the assistant ------------------------------------------------------------------------------


@pytest.fixture
def persona():
    return UserFactory(username="persona_coherencia", permisos=[USAR, "solicitudes.radicar"])


@pytest.fixture
def credenciales(persona):
    clave, secreto_clave = nueva_clave()
    token, secreto_token = nuevo_token(persona)
    return clave, token, {"X-MCP-Api-Key": secreto_clave, "X-MCP-User-Token": secreto_token}


def _calentar(client, cabeceras) -> set[str]:
    """Two tool lists: the second is served from the cache. The names listed."""
    for _ in range(2):
        r = rpc(client, "tools/list", **cabeceras)
        assert r.status == 200, r.cuerpo
    return {h["name"] for h in r.cuerpo["result"]["tools"]}


def test_writes_switched_off_while_redis_hangs_stay_off_within_the_bound(
    client, cache_que_falla, reloj, otro_proceso, credenciales
):
    _clave, _token, cabeceras = credenciales
    assert _calentar(client, cabeceras) & ESCRITURAS
    cambiar_con_la_cache_fallando(
        cache_que_falla, reloj, otro_proceso, lambda: ajustar(escrituras_habilitadas=False)
    )
    for _ in range(2):
        r = rpc(client, "tools/list", **cabeceras)
        assert r.status == 200
        assert not {h["name"] for h in r.cuerpo["result"]["tools"]} & ESCRITURAS


def _bloquear(clave, token, persona) -> None:
    persona.is_active = False
    persona.save()


def _revocar_token(clave, token, persona) -> None:
    mcp.revocar_token_personal(usuario=persona, token_id=token.pk)


# A credential revoked or a person blocked: (change, status, code) of the ping that follows.
CREDENCIAL_CAMBIADA = [
    pytest.param(_revocar_token, 401, "TOKEN_MCP_INVALIDO", id="a_token_revoked"),
    pytest.param(
        lambda clave, token, persona: mcp.revocar_claves(ids=[clave.pk]),
        401,
        "API_KEY_INVALIDA",
        id="an_api_key_revoked",
    ),
    pytest.param(_bloquear, 403, "SIN_PERMISO", id="a_person_blocked"),
]


@pytest.mark.parametrize(
    ("cambio", "status", "codigo"),
    [
        *CREDENCIAL_CAMBIADA,
        pytest.param(
            lambda clave, token, persona: persona.user_permissions.remove(permiso(USAR)),
            403,
            "SIN_PERMISO",
            id="assistant_access_lost",
        ),
    ],
)
def test_a_credential_or_access_changed_while_the_cache_fails_is_refused_within_the_bound(
    client, cache_que_falla, reloj, otro_proceso, credenciales, persona, cambio, status, codigo
):
    clave, token, cabeceras = credenciales
    _calentar(client, cabeceras)
    cambiar_con_la_cache_fallando(
        cache_que_falla, reloj, otro_proceso, lambda: cambio(clave, token, persona)
    )
    for _ in range(2):
        r = rpc(client, "ping", **cabeceras)
        assert (r.status, r.cuerpo["error"]["code"]) == (status, codigo)


# --- OAuth access tokens (issue 25) -------------------------------------------------------------


@pytest.fixture
def oauth(persona):
    from tests.mcp.factories import nuevo_token_oauth

    token, secreto = nuevo_token_oauth(persona)
    return token, {"Authorization": f"Bearer {secreto}"}


def _oauth_rechazado(client, cabeceras) -> None:
    for _ in range(2):
        r = rpc(client, "ping", **cabeceras)
        assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")


def _deshabilitar_cliente(token, persona) -> None:
    aplicacion = token.application
    aplicacion.deshabilitada = True
    aplicacion.save()


def _desconectar(token, persona) -> None:
    from apps.autorizacion import services as servicios_oauth

    servicios_oauth.desconectar(usuario_id=persona.pk, aplicacion_id=token.application_id)


@pytest.mark.parametrize(
    "cambio",
    [
        pytest.param(_deshabilitar_cliente, id="a_client_disabled"),
        pytest.param(_desconectar, id="an_application_disconnected"),
        pytest.param(
            lambda token, persona: ajustar(oauth_habilitado=False), id="oauth_switched_off"
        ),
    ],
)
def test_an_oauth_connection_changed_while_the_cache_fails_is_refused_within_the_bound(
    client, cache_que_falla, reloj, otro_proceso, oauth, persona, cambio
):
    token, cabeceras = oauth
    _calentar(client, cabeceras)
    cambiar_con_la_cache_fallando(
        cache_que_falla, reloj, otro_proceso, lambda: cambio(token, persona)
    )
    _oauth_rechazado(client, cabeceras)


# --- the brand and the signatures ---------------------------------------------------------------


def test_a_brand_changed_while_the_cache_fails_is_published_within_the_bound(
    client, cache_que_falla, reloj, otro_proceso
):
    for _ in range(2):
        antes = client.get("/auth/api/v1/auth/marca")
    assert antes.json()["data"]["nombre"] != "Gobernación del Cambio"
    cambiar_con_la_cache_fallando(
        cache_que_falla,
        reloj,
        otro_proceso,
        lambda: actualizar_marca(cambios={"nombre": "Gobernación del Cambio"}),
    )
    for _ in range(2):
        r = client.get("/auth/api/v1/auth/marca", headers={"If-None-Match": antes["ETag"]})
        assert r.status_code == 200
        assert r.json()["data"]["nombre"] == "Gobernación del Cambio"


def test_a_signature_annulled_while_the_cache_fails_is_answered_annulled_within_the_bound(
    client, cache_que_falla, reloj, otro_proceso
):
    proyecto, area = celda("5000.00")
    cdp = cdp_expedido(proyecto, area, "1000.00", objeto="Apoyo jurídico")
    firma = firmas.firmar(documento=cdp, firmante="Ana Ruiz", rol="Ordenador del gasto")
    for _ in range(2):
        assert client.get(f"{VERIFICAR}{firma.token}").json()["data"]["valido"] is True
    cambiar_con_la_cache_fallando(
        cache_que_falla,
        reloj,
        otro_proceso,
        lambda: firmas.anular(firma=firma, motivo="El proceso fue rechazado y reiniciado."),
    )
    for _ in range(2):
        datos = client.get(f"{VERIFICAR}{firma.token}").json()["data"]
        assert (datos["valido"], datos["anulada"]) == (False, True)


# --- Redis back from an old snapshot -------------------------------------------------------------


@pytest.mark.parametrize(("cambio", "status", "codigo"), CREDENCIAL_CAMBIADA)
def test_a_change_redis_lost_in_a_restart_from_an_old_snapshot_holds_within_the_bound(
    client, redis_propio, reloj, otro_proceso, credenciales, persona, cambio, status, codigo
):
    """Redis dies and comes back from a snapshot taken before the change (a crash or an OOM kill
    with RDB persistence): the change's invalidation is gone, the old entries and generations
    are back, and redis-py reconnects without an error the breaker would see."""
    clave, token, cabeceras = credenciales
    _calentar(client, cabeceras)
    redis_propio.instantanea()
    volver = otro_proceso()
    cambio(clave, token, persona)  # with the cache healthy: its invalidation reaches Redis
    volver()
    redis_propio.reiniciar_desde_la_instantanea()
    reloj.mover(coherencia.COTA_SEGUNDOS)
    for _ in range(2):
        r = rpc(client, "ping", **cabeceras)
        assert (r.status, r.cuerpo["error"]["code"]) == (status, codigo)


def test_writes_switched_off_then_lost_in_a_redis_restart_stay_off_within_the_bound(
    client, redis_propio, reloj, otro_proceso, credenciales
):
    _clave, _token, cabeceras = credenciales
    assert _calentar(client, cabeceras) & ESCRITURAS
    redis_propio.instantanea()
    volver = otro_proceso()
    ajustar(escrituras_habilitadas=False)
    volver()
    redis_propio.reiniciar_desde_la_instantanea()
    reloj.mover(coherencia.COTA_SEGUNDOS)
    for _ in range(2):
        r = rpc(client, "tools/list", **cabeceras)
        assert r.status == 200
        assert not {h["name"] for h in r.cuerpo["result"]["tools"]} & ESCRITURAS


def test_a_brand_change_lost_in_a_redis_restart_is_published_within_the_bound(
    client, redis_propio, reloj, otro_proceso
):
    for _ in range(2):
        assert client.get("/auth/api/v1/auth/marca").json()["data"]["nombre"] != "Tras Reinicio"
    redis_propio.instantanea()
    volver = otro_proceso()
    actualizar_marca(cambios={"nombre": "Tras Reinicio"})
    volver()
    redis_propio.reiniciar_desde_la_instantanea()
    reloj.mover(coherencia.COTA_SEGUNDOS)
    for _ in range(2):
        r = client.get("/auth/api/v1/auth/marca")
        assert (r.status_code, r.json()["data"]["nombre"]) == (200, "Tras Reinicio")


@pytest.mark.parametrize("opciones_redis", [["--rename-command", "INFO", ""]])
def test_a_redis_that_refuses_info_still_serves_and_caches(
    client, redis_propio, opciones_redis, credenciales, django_assert_num_queries
):
    """A managed Redis may forbid INFO (the run_id comes from it): the cache works without it."""
    _clave, _token, cabeceras = credenciales
    _calentar(client, cabeceras)
    client.get("/auth/api/v1/auth/marca")
    with django_assert_num_queries(0):
        assert rpc(client, "ping", **cabeceras).status == 200
        assert client.get("/auth/api/v1/auth/marca").status_code == 200


def test_a_token_revoked_then_flushed_from_redis_is_refused_at_once(
    client, redis_propio, credenciales, persona
):
    """FLUSHDB (or a Redis restarted empty) after a change: nothing to serve but the database."""
    _clave, token, cabeceras = credenciales
    _calentar(client, cabeceras)
    mcp.revocar_token_personal(usuario=persona, token_id=token.pk)
    redis.Redis(port=redis_propio.puerto).flushdb()
    for _ in range(2):
        r = rpc(client, "ping", **cabeceras)
        assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")


# --- the mechanism itself -----------------------------------------------------------------------


def _generacion() -> int:
    from hub.models import Coherencia

    return Coherencia.objects.get(pk=1).generacion


def test_a_lost_invalidation_bumps_the_generation_in_the_same_transaction(
    redis_propio, reloj, credenciales, persona
):
    _clave, token, _cabeceras = credenciales
    antes = _generacion()
    redis_propio.colgar()
    try:
        mcp.revocar_token_personal(usuario=persona, token_id=token.pk)
    finally:
        redis_propio.seguir()
    assert _generacion() > antes


def test_the_cache_coming_back_after_a_failure_bumps_the_generation(
    redis_propio, reloj, client, django_capture_on_commit_callbacks
):
    client.get("/auth/api/v1/auth/marca")
    antes = _generacion()
    redis_propio.colgar()
    try:
        client.get("/auth/api/v1/auth/marca")  # times out: the breaker pauses the cache
    finally:
        redis_propio.seguir()
    reloj.mover(6)  # the pause has passed: the next command reaches the cache again
    # (the test runs in a transaction: the bump waits for its commit, as in a request's)
    with django_capture_on_commit_callbacks(execute=True):
        client.get("/auth/api/v1/auth/marca")
        client.get("/auth/api/v1/auth/marca")
    assert _generacion() > antes


def test_a_warm_process_reads_the_database_generation_once_per_interval(
    client, reloj, settings, django_assert_num_queries
):
    client.get("/auth/api/v1/auth/marca")
    with django_assert_num_queries(0):
        client.get("/auth/api/v1/auth/marca")
    reloj.mover(settings.HUB_COHERENCIA_SEGUNDOS)
    with django_assert_num_queries(1):  # the generation and identity, nothing else
        for _ in range(3):
            client.get("/auth/api/v1/auth/marca")


def test_the_interval_is_within_the_stated_bound(settings):
    assert settings.HUB_COHERENCIA_SEGUNDOS <= coherencia.COTA_SEGUNDOS


def test_after_tras_restaurar_nothing_cached_before_is_read(client, credenciales, reloj, capsys):
    _clave, token, cabeceras = credenciales
    _calentar(client, cabeceras)
    from hub.models import Coherencia

    identidad = Coherencia.objects.get(pk=1).identidad
    # A restore brings back rows as they were: here, the token as revoked, written behind the
    # back of the cache (plain SQL sends no signal), as pg_restore or a copied file would.
    from django.db import connection
    from django.utils import timezone

    from apps.mcp.models import TokenPersonal

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {TokenPersonal._meta.db_table} SET revocado_en = %s WHERE id = %s",
            [timezone.now(), token.pk],
        )
    assert rpc(client, "ping", **cabeceras).status == 200  # the cache still says otherwise
    call_command("tras_restaurar")
    assert Coherencia.objects.get(pk=1).identidad != identidad
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")
    assert "restaur" in capsys.readouterr().out.lower()


def test_after_tras_restaurar_no_cached_oauth_token_is_read(client, oauth, reloj):
    token, cabeceras = oauth
    _calentar(client, cabeceras)
    # The restored rows do not have the token (deleted behind the back of the cache).
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {token._meta.db_table} WHERE id = %s", [token.pk])
    assert rpc(client, "ping", **cabeceras).status == 200  # the cache still says otherwise
    call_command("tras_restaurar")
    _oauth_rechazado(client, cabeceras)


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="PostgreSQL's own rows"
)
def test_a_restore_in_place_on_postgresql_is_noticed_without_tras_restaurar(
    client, credenciales, reloj
):
    _clave, token, cabeceras = credenciales
    _calentar(client, cabeceras)
    from django.db import connection
    from django.utils import timezone

    from apps.mcp.models import TokenPersonal

    # `pg_restore --clean` into the same database: every row comes back as it was in the dump,
    # written anew (the token as revoked; hub_coherencia with the same identity and generation).
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {TokenPersonal._meta.db_table} SET revocado_en = %s WHERE id = %s",
            [timezone.now(), token.pk],
        )
        cursor.execute("SELECT generacion, identidad FROM hub_coherencia WHERE id = 1")
        fila = cursor.fetchone()
        cursor.execute("DELETE FROM hub_coherencia")
        cursor.execute(
            "INSERT INTO hub_coherencia (id, generacion, identidad) VALUES (1, %s, %s)",
            fila,
        )
    assert rpc(client, "ping", **cabeceras).status == 200  # within the interval: the cache
    reloj.mover(coherencia.COTA_SEGUNDOS)
    r = rpc(client, "ping", **cabeceras)
    assert (r.status, r.cuerpo["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")


@pytest.mark.django_db(transaction=True)
def test_reading_the_seal_never_inserts_its_row(client):
    """A restore under traffic creates each table before it copies its rows: a reader that
    inserted the missing row there would leave two rows with id 1 (the primary key comes last).
    Reading the seal never inserts; only a write that must bump the generation does."""
    from hub.models import Coherencia

    Coherencia.objects.all().delete()
    coherencia.olvidar_estado()
    for _ in range(2):
        assert client.get("/auth/api/v1/auth/marca").status_code == 200
        coherencia.refrescar()
    assert Coherencia.objects.count() == 0
    coherencia.avanzar()  # a lost invalidation: the write creates the row
    assert Coherencia.objects.count() == 1


def test_a_release_with_other_columns_reads_nothing_the_previous_release_cached(monkeypatch):
    """A deploy that adds a field must not read pickles without it (one query per request)."""
    from apps.mcp.models import AjustesAsistente
    from hub.cache import coherencia

    antes = coherencia.refrescar()
    AjustesAsistente.cargar()  # cached under this release's seal
    monkeypatch.setattr(coherencia, "esquema", lambda: "otra-version-del-codigo")
    despues = coherencia.refrescar()
    assert despues != antes
    with CaptureQueriesContext(connection) as leidas:
        ajustes = AjustesAsistente.cargar()  # the other release's entry is not found: read anew
    assert any("mcp_ajustesasistente" in q["sql"] for q in leidas.captured_queries)
    with CaptureQueriesContext(connection) as diferidas:
        ajustes.oauth_habilitado  # noqa: B018  (read anew: every field is there, none deferred)
    assert diferidas.captured_queries == []
