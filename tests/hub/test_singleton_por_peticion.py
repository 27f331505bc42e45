"""Within one request each singleton is read from the shared cache once; across requests, again."""

from __future__ import annotations

import pytest

from hub.cache import singleton
from hub.cache.singleton import memoria_de_peticion
from hub.models import Limites
from tests.marca.factories import URL_MARCA

pytestmark = pytest.mark.django_db


@pytest.fixture
def lecturas(monkeypatch):
    """The keys read from the shared cache through hub.cache.singleton, in order."""
    vistas: list[str] = []
    original = singleton.leer_versionado

    def contando(clave: str):
        vistas.append(clave)
        return original(clave)

    monkeypatch.setattr(singleton, "leer_versionado", contando)
    return vistas


def test_a_brand_request_reads_the_limits_from_the_cache_once(client, lecturas):
    Limites.cargar()  # cached before the requests, as on a running server
    lecturas.clear()
    assert client.get(URL_MARCA).status_code == 200
    assert lecturas.count(Limites._clave_cache()) == 1
    assert client.get(URL_MARCA).status_code == 200
    assert lecturas.count(Limites._clave_cache()) == 2  # the next request reads it again


def test_a_change_saved_by_another_host_is_seen_by_the_next_request(client):
    assert client.get(URL_MARCA)["X-RateLimit-Limit"] == "600"
    Limites.objects.filter(pk=1).update(marca_por_minuto=7)  # another host's write...
    Limites.olvidar()  # ...and its invalidation, outside this request
    assert client.get(URL_MARCA)["X-RateLimit-Limit"] == "7"


def test_inside_a_request_an_unsaved_edit_does_not_reach_the_next_reader():
    with memoria_de_peticion():
        primera = Limites.cargar()
        primera.global_por_minuto = 1
        assert Limites.cargar().global_por_minuto == 1000


def test_inside_a_request_a_save_is_read_back_at_once():
    with memoria_de_peticion():
        limites = Limites.cargar()
        limites.global_por_minuto = 5
        limites.save()
        assert Limites.cargar().global_por_minuto == 5


def test_outside_a_request_every_read_goes_to_the_cache(lecturas):
    Limites.cargar()  # creates the row the first time
    lecturas.clear()
    Limites.cargar()
    Limites.cargar()
    assert lecturas.count(Limites._clave_cache()) == 2
