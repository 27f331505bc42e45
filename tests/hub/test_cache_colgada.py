"""A hung Redis (it accepts connections and never answers, as a stopped process does): after one
failure the cache is left alone for HUB_CACHE_PAUSA seconds, so requests stop waiting a timeout
on every cache call, and they are answered as docs/contrato.md («Límites») says for a dead cache."""

from __future__ import annotations

import json
import socket

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from hub.cache.almacenes import CachePausada, describir
from tests.factories import UserFactory
from tests.notificaciones.ayudas import cuerpo
from tests.notificaciones.factories import SitioContactoFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_colgado():
    """A TCP port that accepts connections (the kernel's backlog) and never answers."""
    oyente = socket.socket()
    oyente.bind(("127.0.0.1", 0))
    oyente.listen(64)
    puerto = oyente.getsockname()[1]
    conf = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheRedis",
            "LOCATION": f"redis://127.0.0.1:{puerto}/0",
            "KEY_PREFIX": "colgado",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    with override_settings(CACHES=conf, HUB_CACHE_PAUSA=30):
        yield caches["default"]
    oyente.close()


def test_after_one_timeout_requests_skip_the_cache_and_are_served(client, redis_colgado, idas):
    primera = client.get("/auth/api/v1/ping")
    assert primera.status_code == 200  # the global limit fails open
    assert idas[0] == 1  # one command waited its timeout, then the pause began
    for _ in range(5):
        r = client.get("/auth/api/v1/ping")
        assert r.status_code == 200
        assert "X-RateLimit-Global-Limit" not in r
    assert idas[0] == 1  # nothing more was sent to the hung server


def test_the_brand_is_served_from_the_database_during_the_pause(client, redis_colgado, idas):
    client.get("/auth/api/v1/ping")
    r = client.get("/auth/api/v1/auth/marca")
    assert r.status_code == 200
    assert r.json()["data"]["version"] == r["ETag"].strip('"')
    assert idas[0] == 1


def test_contact_fails_closed_with_503_during_the_pause(client, redis_colgado, idas):
    sitio = SitioContactoFactory()
    client.get("/auth/api/v1/ping")
    r = client.post(
        "/notificaciones/api/public/v1/contacto",
        data=json.dumps(cuerpo(sitio=sitio.codigo)),
        content_type="application/json",
    )
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "SERVICIO_NO_DISPONIBLE"
    assert idas[0] == 1


def test_the_pause_ends_and_the_cache_is_tried_again(redis_colgado, idas, monkeypatch):
    with pytest.raises(redis.exceptions.TimeoutError):
        redis_colgado.get("x")
    with pytest.raises(CachePausada):
        redis_colgado.get("x")
    assert idas[0] == 1
    pausa = redis_colgado.cliente.pausa
    monkeypatch.setattr(pausa, "hasta", 0.0)  # the pause's seconds have passed
    with pytest.raises(redis.exceptions.TimeoutError):
        redis_colgado.get("x")
    assert idas[0] == 2


def test_health_says_which_cache_is_in_use_and_that_it_is_paused(client, redis_colgado):
    client.get("/auth/api/v1/ping")
    assert describir()["tipo"] == "redis" and describir()["pausada_s"] > 0
    client.force_login(UserFactory(is_staff=True))
    r = client.get("/salud/")
    assert r.status_code == 503
    (cache,) = r.json()["checks"]["cache:responseTime"]
    assert cache["componentId"] == "redis"
    assert cache["status"] == "fail" and cache["output"] == "CachePausada"
    assert cache["pausada_s"] > 0


def test_without_redis_health_names_the_file_cache_shared_by_this_host(client):
    client.force_login(UserFactory(is_staff=True))
    (cache,) = client.get("/salud/").json()["checks"]["cache:responseTime"]
    if caches["default"].__class__.__name__ == "CacheRedis":
        assert (cache["componentId"], cache["alcance"]) == ("redis", "todos los hosts")
    else:
        assert (cache["componentId"], cache["alcance"]) == ("archivo", "un solo host")
