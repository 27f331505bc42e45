from __future__ import annotations

import json
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import RequestFactory, override_settings

from hub.http import respuestas
from hub.http.api import VistaPublica
from hub.http.ip import redes_confiables
from hub.http.limites import CacheNoDisponible, Regla, contar
from hub.models import Limites
from tests.caches import CACHE_MUERTA

pytestmark = pytest.mark.django_db


def _limite_global(valor: int) -> None:
    Limites.objects.update_or_create(pk=1, defaults={"global_por_minuto": valor})
    Limites.olvidar()


def test_every_answer_carries_the_global_headers_with_the_default_1000(client):
    r = client.get("/auth/api/v1/ping")
    assert r["X-RateLimit-Global-Limit"] == "1000"
    assert r["X-RateLimit-Global-Remaining"] == "999"
    r = client.get("/no-es-api/")
    assert r["X-RateLimit-Global-Remaining"] == "998"


def test_over_the_global_limit_is_429_rate_limit_with_retry_after(client):
    _limite_global(3)
    for restante in ("2", "1", "0"):
        assert client.get("/mcp/api/v1/ping")["X-RateLimit-Global-Remaining"] == restante
    r = client.get("/calidad/api/v1/ping")
    assert r.status_code == 429
    cuerpo = r.json()
    assert cuerpo["success"] is False and cuerpo["error"]["code"] == "RATE_LIMIT"
    assert 1 <= int(r["Retry-After"]) <= 60
    assert r["X-RateLimit-Global-Remaining"] == "0"


def test_the_global_limit_counts_per_ip(client):
    _limite_global(1)
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="10.0.0.1").status_code == 200
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="10.0.0.1").status_code == 429
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_forged_forwarded_for_does_not_escape_the_limit_without_trusted_proxies(client):
    _limite_global(1)
    assert client.get("/auth/api/v1/ping", HTTP_X_FORWARDED_FOR="1.1.1.1").status_code == 200
    r = client.get("/auth/api/v1/ping", HTTP_X_FORWARDED_FOR="2.2.2.2")
    assert r.status_code == 429


@override_settings(HUB_PROXIES_CONFIABLES=redes_confiables("10.9.9.9"))
def test_behind_one_proxy_a_client_cannot_choose_its_ip_by_prepending_hops(client):
    _limite_global(1)
    proxy = {"REMOTE_ADDR": "10.9.9.9"}
    assert (
        client.get("/auth/api/v1/ping", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy).status_code
        == 200
    )
    # The same client adds a fake left-most hop: our proxy still appends its real address.
    r = client.get("/auth/api/v1/ping", HTTP_X_FORWARDED_FOR="8.8.8.8, 203.0.113.7", **proxy)
    assert r.status_code == 429
    otro = client.get("/auth/api/v1/ping", HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)
    assert otro.status_code == 200


def test_limits_are_adjustable_by_the_administrator_at_run_time(client):
    assert client.get("/auth/api/v1/ping")["X-RateLimit-Global-Limit"] == "1000"
    limites = Limites.cargar()
    limites.global_por_minuto = 50
    limites.save()
    assert client.get("/auth/api/v1/ping")["X-RateLimit-Global-Limit"] == "50"


def test_endpoint_rule_adds_its_headers_and_refuses_over_the_limit():
    class Vista(VistaPublica):
        reglas = (Regla("prueba", lambda: 2, 60),)

        def get(self, request):
            return respuestas.ok({})

    vista = Vista.as_view()
    rf = RequestFactory()
    assert vista(rf.get("/"))["X-RateLimit-Remaining"] == "1"
    assert vista(rf.get("/"))["X-RateLimit-Remaining"] == "0"
    r = vista(rf.get("/"))
    assert r.status_code == 429
    assert r["X-RateLimit-Limit"] == "2" and r["X-RateLimit-Remaining"] == "0"
    assert int(r["Retry-After"]) >= 1


@override_settings(CACHES=CACHE_MUERTA)
def test_cache_down_reads_fail_open_and_are_served(client, caplog):
    r = client.get("/auth/api/v1/ping")
    assert r.status_code == 200
    assert "X-RateLimit-Global-Limit" not in r
    assert "límite global no aplicado" in caplog.text


@override_settings(CACHES=CACHE_MUERTA)
def test_cache_down_fail_closed_rule_is_503_not_500():
    class Vista(VistaPublica):
        reglas = (Regla("cerrado", lambda: 5, 60),)
        falla_cerrado = True

        def get(self, request):
            raise AssertionError("must not run")

    r = Vista.as_view()(RequestFactory().get("/"))
    assert r.status_code == 503
    assert json.loads(r.content)["error"]["code"] == "SERVICIO_NO_DISPONIBLE"


@override_settings(CACHES=CACHE_MUERTA)
def test_counting_against_a_dead_cache_raises_cache_no_disponible():
    with pytest.raises(CacheNoDisponible):
        contar(grupo="x", clave="y", limite=1, ventana=60)


def test_a_read_without_incrementing_does_not_count():
    contar(grupo="g", clave="k", limite=5, ventana=60)
    assert contar(grupo="g", clave="k", limite=5, ventana=60, incrementar=False).usados == 1
    assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 2


def test_the_count_starts_again_when_its_window_ends(monkeypatch):
    ahora = [1_800_000_000]
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: ahora[0]))
    primero = contar(grupo="g", clave="k", limite=5, ventana=60)
    assert primero.usados == 1
    assert 1 <= primero.reintentar_en <= 60
    ahora[0] += primero.reintentar_en - 1  # the window's last second
    ultimo = contar(grupo="g", clave="k", limite=5, ventana=60)
    assert (ultimo.usados, ultimo.reintentar_en) == (2, 1)
    ahora[0] += 1  # the next window
    siguiente = contar(grupo="g", clave="k", limite=5, ventana=60)
    assert (siguiente.usados, siguiente.reintentar_en) == (1, 60)


def test_each_group_and_key_has_its_own_count():
    contar(grupo="g", clave="k", limite=5, ventana=60)
    contar(grupo="g", clave="k", limite=5, ventana=60)
    assert contar(grupo="g", clave="otra", limite=5, ventana=60).usados == 1
    assert contar(grupo="otro", clave="k", limite=5, ventana=60).usados == 1
    assert contar(grupo="g", clave="k", limite=5, ventana=3600).usados == 1
