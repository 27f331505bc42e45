"""The cache calls django-ratelimit's `get_usage` makes, as the installed version makes them.

hub.cache.lote relies on exactly these: it computes the key a counted hit's `add(key, 1, expiry)`
uses (a rule copied from the library), makes the same add-then-incr in the request's one round
trip, and hub.http.limites.contar takes that count from there. A read (increment=False) must
never look like a count. If an upgrade changes any of this, these tests fail first.
"""

from __future__ import annotations

from typing import Any

import django_ratelimit.core
import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings
from django_ratelimit.core import get_usage

from hub.cache import lote
from hub.cache.lote import PREFIJO_LIMITES

LLAMADAS: list[tuple[Any, ...]] = []


class CacheEspia(LocMemCache):
    """A local-memory cache that notes every call django-ratelimit makes."""

    def add(self, key, value, timeout=None, version=None):
        LLAMADAS.append(("add", key, value, timeout))
        return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        LLAMADAS.append(("incr", key, delta))
        return super().incr(key, delta, version)

    def get(self, key, default=None, version=None):
        LLAMADAS.append(("get", key, default))
        return super().get(key, default, version)

    def set(self, key, value, timeout=None, version=None):
        LLAMADAS.append(("set", key, value, timeout))
        return super().set(key, value, timeout, version)

    def get_many(self, keys, version=None):
        LLAMADAS.append(("get_many", tuple(keys)))
        return super().get_many(keys, version)


@pytest.fixture
def espia():
    conf = {"espia": {"BACKEND": f"{__name__}.CacheEspia", "LOCATION": "espia"}}
    with override_settings(CACHES={**settings.CACHES, **conf}, RATELIMIT_USE_CACHE="espia"):
        caches["espia"].clear()
        LLAMADAS.clear()
        yield LLAMADAS
        LLAMADAS.clear()


def _uso(incrementar: bool = True) -> dict[str, Any]:
    return get_usage(None, group="g", key=lambda _g, _r: "k", rate="5/60s", increment=incrementar)


def test_the_first_hit_of_a_window_is_one_add_of_1_with_the_windows_expiry(espia):
    assert _uso()["count"] == 1
    (llamada,) = espia
    nombre, clave, valor, expira = llamada
    assert (nombre, valor, expira) == ("add", 1, 60 + django_ratelimit.core.EXPIRATION_FUDGE)
    assert clave.startswith(PREFIJO_LIMITES)


def test_a_later_hit_is_an_add_that_finds_the_key_then_one_incr_of_that_key(espia):
    _uso()
    espia.clear()
    assert _uso()["count"] == 2
    assert [llamada[:3] for llamada in espia] == [("add", espia[0][1], 1), ("incr", espia[0][1], 1)]


def test_the_same_hit_twice_uses_the_same_key(espia):
    _uso()
    _uso()
    assert len({llamada[1] for llamada in espia}) == 1


def test_a_read_adds_0_then_gets_and_never_adds_1_or_increments(espia):
    assert _uso(incrementar=False)["count"] == 0
    clave = espia[0][1]
    assert espia == [("add", clave, 0, 60 + django_ratelimit.core.EXPIRATION_FUDGE)]
    _uso()
    espia.clear()
    assert _uso(incrementar=False)["count"] == 1
    assert [llamada[:3] for llamada in espia] == [("add", clave, 0), ("get", clave, 0)]


def test_the_prefix_recorded_is_django_ratelimits_default():
    assert PREFIJO_LIMITES == getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:") == "rl:"


@pytest.mark.parametrize(("limite", "segundos"), [(5, 60), (1000, 60), (3, 1), (120, 3600)])
def test_the_batch_computes_the_very_key_and_window_django_ratelimit_counts_under(
    espia, limite, segundos
):
    # Both read the library's clock (which tests/conftest.py stands still).
    uso = get_usage(
        None, group="g", key=lambda _g, _r: "k", rate=f"{limite}/{segundos}s", increment=True
    )
    llave, fin = lote.Conteo("g", "k", limite, segundos).llave()
    (llamada,) = espia
    assert llamada[1] == llave
    assert (
        llamada[3] == lote.expiracion(segundos) == segundos + django_ratelimit.core.EXPIRATION_FUDGE
    )
    assert uso["time_left"] == fin - lote.ahora()
