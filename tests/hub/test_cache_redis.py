"""hub.cache.almacenes.CacheRedis: `add` and `incr` each keep Django's contract on their own
(atomic, the expiry set once, in any order), and a count made in a request's batch
(hub.cache.lote) leaves Redis as django-ratelimit's own calls would. Against a real Redis (the
`redis_real` fixture)."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django_ratelimit.core import get_usage

from hub.cache import lote
from hub.http.limites import contar

pytestmark = pytest.mark.django_db

CLAVE = "rl:prueba"


def _redis(cache, clave: str) -> tuple[bytes | None, int]:
    """(raw value, seconds to live) of a key as Redis holds it."""
    cliente = cache.cliente.get_client(write=True)
    hecha = cache.make_key(clave)
    return cliente.get(hecha), cliente.ttl(hecha)


def test_add_creates_a_key_once_with_its_expiry(redis_real):
    cache = caches["default"]
    assert cache.add(CLAVE, 1, 60) is True
    assert cache.add(CLAVE, 5, 600) is False
    assert _redis(cache, CLAVE) == (b"1", 60)


def test_incr_of_a_missing_key_raises_and_creates_nothing(redis_real):
    cache = caches["default"]
    with pytest.raises(ValueError):
        cache.incr(CLAVE)
    assert _redis(cache, CLAVE) == (None, -2)


def test_incr_counts_on_the_key_add_made_and_keeps_its_expiry(redis_real):
    cache = caches["default"]
    cache.add(CLAVE, 1, 60)
    assert cache.incr(CLAVE) == 2
    assert cache.incr(CLAVE, 3) == 5
    assert cache.add(CLAVE, 1, 600) is False
    assert _redis(cache, CLAVE) == (b"5", 60)


def test_a_key_without_the_rate_limit_prefix_behaves_the_same(redis_real):
    cache = caches["default"]
    assert cache.add("otra", 1, 30) is True
    assert cache.add("otra", 1, 30) is False
    assert cache.incr("otra") == 2
    assert _redis(cache, "otra") == (b"2", 30)


def _contar(incrementar: bool = True) -> int:
    uso = get_usage(None, group="g", key=lambda _g, _r: "k", rate="5/60s", increment=incrementar)
    return uso["count"]


def _clave_de_la_ventana(cache) -> str:
    """The key django-ratelimit counts "g"/"k" under (the only one in this private prefix)."""
    cliente = cache.cliente.get_client(write=True)
    (clave,) = cliente.scan_iter(cache.make_key("rl:*"))
    return clave


def _en_un_lote() -> int:
    """One count declared in a request's batch (hub.cache.lote), made in its round trip, then
    asked of hub.http.limites.contar (which takes it from the batch)."""
    with lote.de_la_peticion():
        lote.poner(lote.hacer(lote.Pedido(conteos=[lote.Conteo("g", "k", 5, 60)])))
        return contar(grupo="g", clave="k", limite=5, ventana=60).usados


def test_counts_in_the_round_trip_match_those_made_call_by_call(redis_real):
    cache = caches["default"]
    assert [_en_un_lote(), _contar(), _en_un_lote(), _contar()] == [1, 2, 3, 4]
    cliente = cache.cliente.get_client(write=True)
    clave = _clave_de_la_ventana(cache)
    expira = cliente.ttl(clave)
    assert cliente.get(clave) == b"4"
    assert expira > 60  # set once, by the window's first hit (60 s and the library's margin)
    assert _en_un_lote() == 5
    assert cliente.ttl(clave) <= expira  # the round trip's count did not set it again


def test_a_window_that_a_read_opened_counts_its_first_hit_as_1_in_the_round_trip(redis_real):
    assert _contar(incrementar=False) == 0  # add(key, 0): the key exists with 0
    assert _en_un_lote() == 1
    assert _contar(incrementar=False) == 1


def test_a_declared_count_is_one_round_trip_and_a_count_not_declared_goes_to_redis(
    redis_real, idas
):
    _contar()  # opens the connection
    idas[0] = 0
    with lote.de_la_peticion():
        lote.poner(lote.hacer(lote.Pedido(conteos=[lote.Conteo("g", "k", 5, 60)])))
        assert idas[0] == 1
        assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 2  # from the batch
        assert idas[0] == 1
        # A second count of the key was not declared: django-ratelimit's add and incr.
        assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 3
        assert idas[0] == 3


def test_a_count_under_another_limit_than_the_declared_one_goes_to_redis(redis_real, idas):
    _contar()
    idas[0] = 0
    with lote.de_la_peticion():
        lote.poner(lote.hacer(lote.Pedido(conteos=[lote.Conteo("g", "k", 5, 60)])))
        # The limit changed since the guess: another key, counted anew (one add).
        assert contar(grupo="g", clave="k", limite=7, ventana=60).usados == 1
        assert idas[0] == 2


def test_an_empty_batch_sends_nothing(redis_real, idas):
    _contar()
    idas[0] = 0
    assert lote.hacer(lote.Pedido()) is None
    assert idas[0] == 0


def test_outside_a_request_s_batch_every_method_answers_alone(redis_real, idas):
    # The backend has no mode: add and incr always go to Redis, whatever else ran before.
    cache = caches["default"]
    with lote.de_la_peticion():
        lote.poner(lote.hacer(lote.Pedido(conteos=[lote.Conteo("g", "k", 5, 60)])))
    idas[0] = 0
    assert _contar() == 2
    assert idas[0] == 2
    assert cache.add(CLAVE, 1, 60) is True and idas[0] == 3
