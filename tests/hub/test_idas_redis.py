"""Redis round trips per request, counted like queries: they must not creep back.

Always against a real Redis (REDIS_URL, or the local one the two-host test also needs), under a
private prefix, whatever cache the rest of the run uses.
"""

from __future__ import annotations

import os
import uuid

import pytest
import redis.connection
from django.core.cache import caches
from django.test import override_settings

from hub.limites import contar
from hub.models import Limites
from tests.marca.factories import URL_MARCA
from tests.procesos import REDIS_POR_DEFECTO

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_real():
    """The default cache is a real Redis for this test; its keys are removed afterwards."""
    prefijo = f"idas-{uuid.uuid4().hex[:8]}"
    conf = {
        "default": {
            "BACKEND": "hub.cache.CacheRedis",
            "LOCATION": os.environ.get("REDIS_URL") or REDIS_POR_DEFECTO,
            "KEY_PREFIX": prefijo,
        }
    }
    with override_settings(CACHES=conf):
        cliente = caches["default"]._cache.get_client(write=True)
        try:
            yield
        finally:
            claves = list(cliente.scan_iter(f"{prefijo}:*"))
            if claves:
                cliente.delete(*claves)


@pytest.fixture
def idas(monkeypatch):
    """How many times redis-py sends something: one per round trip (a pipeline sends once)."""
    enviadas = [0]
    original = redis.connection.AbstractConnection.send_packed_command

    def contando(self, *args, **kwargs):
        enviadas[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", contando)
    return enviadas


def test_counting_a_hit_is_one_round_trip(redis_real, idas):
    contar(grupo="g", clave="otra", limite=5, ventana=60)  # opens the connection (handshake)
    idas[0] = 0
    assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 1
    assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 2
    assert idas[0] == 2


@pytest.mark.parametrize(
    ("ruta", "esperadas"),
    [
        # Limites (one MGET) and the global count.
        ("/auth/api/v1/ping", 2),
        # The same, plus the brand limit and the published brand (Limites read once).
        (URL_MARCA, 4),
    ],
)
def test_a_warm_request_costs_a_fixed_number_of_round_trips(
    client, redis_real, idas, ruta, esperadas
):
    Limites.cargar()
    assert client.get(ruta).status_code == 200  # warms the brand
    idas[0] = 0
    assert client.get(ruta).status_code == 200
    assert idas[0] == esperadas
