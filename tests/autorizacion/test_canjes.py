"""A replayed authorization code revokes what its exchange gave, whatever happened to the cache:
the record of the exchange is a database row, written with the tokens (OAuth 2.1 4.1.3)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion.models import CanjeCodigo
from apps.autorizacion.servidor import Validador
from hub import secretos
from tests.autorizacion.flujo import Pedido, aprobar, canjear, consulta, refrescar
from tests.conftest import limpiar_cache

pytestmark = pytest.mark.django_db


def _codigo(sesion, app) -> tuple[Pedido, str]:
    pedido = Pedido(client_id=app.client_id)
    return pedido, consulta(aprobar(sesion, pedido)["Location"])["code"]


def _revocado() -> bool:
    """The one exchange's tokens are dead in the database: access token deleted, refresh revoked."""
    return not AccessToken.objects.exists() and RefreshToken.objects.get().revoked is not None


def test_a_code_replayed_after_the_cache_was_flushed_still_revokes_what_it_gave(sesion, app):
    pedido, codigo = _codigo(sesion, app)
    primeros = canjear(sesion, pedido, codigo).json()
    limpiar_cache()  # flushed, restored from an old copy, or the key evicted
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert _revocado()
    assert refrescar(sesion, app.client_id, primeros["refresh_token"]).status_code == 400


def test_a_code_exchanged_and_replayed_while_the_cache_fails_still_revokes_what_it_gave(
    cache_que_falla, sesion, app
):
    pedido, codigo = _codigo(sesion, app)
    cache_que_falla.colgar()
    try:
        assert canjear(sesion, pedido, codigo).status_code == 200
        r = canjear(sesion, pedido, codigo)
    finally:
        cache_que_falla.seguir()
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert _revocado()


def test_two_exchanges_racing_for_one_code_give_nothing_to_the_second_and_revoke_the_first(
    sesion, app
):
    # Both passed the code's check before either deleted it: the second is the replay.
    pedido, codigo = _codigo(sesion, app)
    concesion = Grant.objects.get(code=codigo)
    assert canjear(sesion, pedido, codigo).status_code == 200
    concesion.save()  # as the second request saw it: not yet deleted by the first
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert r["Cache-Control"] == "no-store"  # as oauthlib answers any refused code
    assert RefreshToken.objects.count() == 1  # the second exchange issued nothing
    assert _revocado()


def test_a_code_another_exchange_consumes_midway_is_invalid_grant_and_issues_nothing(
    sesion, app, monkeypatch
):
    # Another host's exchange deletes the grant right after this one checked the code: the
    # library read the grant again (PKCE, redirect URI) and its `get` raised, a 500.
    pedido, codigo = _codigo(sesion, app)
    validar = Validador.validate_code

    def y_otro_lo_consume(self, *args, **kwargs):
        valido = validar(self, *args, **kwargs)
        Grant.objects.filter(code=codigo).delete()
        return valido

    monkeypatch.setattr(Validador, "validate_code", y_otro_lo_consume)
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists() and not RefreshToken.objects.exists()
    assert not CanjeCodigo.objects.exists()


def test_an_exchange_reads_the_grant_three_times_and_deletes_it_once(sesion, app):
    # The library's own check and its save read it; the hub reads it once for PKCE, the redirect
    # URI and the resource (the library read it again at each: six reads before).
    pedido, codigo = _codigo(sesion, app)
    with CaptureQueriesContext(connection) as consultas:
        assert canjear(sesion, pedido, codigo).status_code == 200
    concesiones = [
        q["sql"] for q in consultas.captured_queries if '"oauth2_provider_grant"' in q["sql"]
    ]
    assert [q.split()[0] for q in concesiones] == ["SELECT", "SELECT", "SELECT", "DELETE"]


def test_the_record_of_an_exchange_holds_the_codes_digest_never_the_code(sesion, app):
    pedido, codigo = _codigo(sesion, app)
    assert canjear(sesion, pedido, codigo).status_code == 200
    canje = CanjeCodigo.objects.get()
    assert canje.huella == secretos.huella(codigo)
    assert canje.familia == RefreshToken.objects.get().token_family
    fila = CanjeCodigo.objects.values().get()
    assert not any(codigo in str(valor) for valor in fila.values())


def test_a_refused_exchange_leaves_no_record(sesion, app):
    pedido, codigo = _codigo(sesion, app)
    assert canjear(sesion, pedido, codigo, verificador="v" * 50).status_code == 400
    assert not CanjeCodigo.objects.exists()
