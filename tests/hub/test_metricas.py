"""Metrics for operators (issue 23, item 9): each metric moves when its event happens, the
endpoint is closed to whoever the settings do not name, and the labels stay a bounded set."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings
from django.urls import resolve
from prometheus_client import REGISTRY

from hub.cache.almacenes import CachePausada
from hub.http.ip import redes_confiables
from hub.models import Limites
from tests.procesos import RAIZ

pytestmark = pytest.mark.django_db

TOKEN = "t" * 20 + "-metricas-de-prueba-0123456789"
CON_TOKEN = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


def valor(nombre: str, **etiquetas: str) -> float:
    """A sample of this process's registry; 0 when that label set was never counted."""
    return REGISTRY.get_sample_value(nombre, etiquetas) or 0.0


def _etiquetas_de(metrica: str) -> set[tuple[tuple[str, str], ...]]:
    return {
        tuple(sorted(m.labels.items()))
        for familia in REGISTRY.collect()
        if familia.name == metrica
        for m in familia.samples
        if m.name == f"{metrica}_total"
    }


def test_a_request_is_counted_by_its_route_method_and_status_and_timed(client):
    etiquetas = {"ruta": "solicitudes/api/v1/ping", "metodo": "GET", "estado": "200"}
    antes = valor("hub_peticiones_total", **etiquetas)
    veces = valor("hub_peticion_segundos_count", ruta="solicitudes/api/v1/ping")
    assert client.get("/solicitudes/api/v1/ping").status_code == 200
    assert valor("hub_peticiones_total", **etiquetas) == antes + 1
    assert valor("hub_peticion_segundos_count", ruta="solicitudes/api/v1/ping") == veces + 1
    assert valor("hub_peticion_segundos_sum", ruta="solicitudes/api/v1/ping") > 0


def test_a_route_with_a_parameter_is_one_label_whatever_the_value(client):
    ruta = resolve("/presupuesto/api/v1/firmas/verificar/x").route  # the pattern, not the path
    antes = _etiquetas_de("hub_peticiones")
    for codigo in ("00000000-0000-0000-0000-000000000001", "otro-codigo", "x" * 40):
        client.get(f"/presupuesto/api/v1/firmas/verificar/{codigo}")
    nuevas = _etiquetas_de("hub_peticiones") - antes
    assert {dict(e)["ruta"] for e in nuevas} <= {ruta}
    assert valor("hub_peticion_segundos_count", ruta=ruta) >= 3
    assert all("otro-codigo" not in str(e) for e in _etiquetas_de("hub_peticiones"))


def test_unknown_paths_and_methods_create_no_new_label(client):
    client.get("/no-existe-1/")  # warms the one label unknown paths share,
    client.get("/auth/api/x/desconocida")  # the catch-all pattern of unknown API paths
    client.generic("PROPFIND", "/solicitudes/api/v1/ping")  # and the one of odd methods
    antes = _etiquetas_de("hub_peticiones")
    for i in range(5):
        client.get(f"/no-existe-{i}/abc")
        client.get(f"/auth/api/{i}/desconocida")
        client.generic(f"METODO{i}", "/solicitudes/api/v1/ping")
    despues = _etiquetas_de("hub_peticiones")
    assert despues == antes
    rutas = {dict(e)["ruta"] for e in despues}
    pedidas = [f"no-existe-{i}" for i in range(5)] + [f"api/{i}/desconocida" for i in range(5)]
    assert not any(p in r for p in pedidas for r in rutas)  # no path ever became a label
    assert not any(dict(e)["metodo"].startswith("METODO") for e in despues)


def test_a_429_of_the_global_limit_counts_a_refusal_of_that_limit(client):
    Limites.objects.update_or_create(pk=1, defaults={"global_por_minuto": 1})
    Limites.olvidar()
    antes = valor("hub_limite_rechazos_total", limite="global")
    ruta = "auth/api/v1/ping"
    peticiones_429 = valor("hub_peticiones_total", ruta=ruta, metodo="GET", estado="429")
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="10.9.9.1").status_code == 200
    assert valor("hub_limite_rechazos_total", limite="global") == antes
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="10.9.9.1").status_code == 429
    assert valor("hub_limite_rechazos_total", limite="global") == antes + 1
    # Refused once the view is known (process_view, where the request's batch is sent): the
    # request is counted under its route.
    assert (
        valor("hub_peticiones_total", ruta=ruta, metodo="GET", estado="429") == peticiones_429 + 1
    )


def test_a_429_of_the_global_limit_on_a_path_with_no_route_is_counted_as_unrouted(client):
    Limites.objects.update_or_create(pk=1, defaults={"global_por_minuto": 1})
    Limites.olvidar()
    antes = valor("hub_limite_rechazos_total", limite="global")
    peticiones_429 = valor("hub_peticiones_total", ruta="sin_ruta", metodo="GET", estado="429")
    assert client.get("/no-existe/", REMOTE_ADDR="10.9.9.3").status_code == 404
    assert client.get("/no-existe/", REMOTE_ADDR="10.9.9.3").status_code == 429
    assert valor("hub_limite_rechazos_total", limite="global") == antes + 1
    assert (
        valor("hub_peticiones_total", ruta="sin_ruta", metodo="GET", estado="429")
        == peticiones_429 + 1
    )


def test_a_429_of_an_endpoint_limit_counts_a_refusal_of_that_limit(client):
    Limites.objects.update_or_create(pk=1, defaults={"marca_por_minuto": 1})
    Limites.olvidar()
    antes = valor("hub_limite_rechazos_total", limite="marca")
    assert client.get("/auth/api/v1/auth/marca", REMOTE_ADDR="10.9.9.2").status_code == 200
    assert client.get("/auth/api/v1/auth/marca", REMOTE_ADDR="10.9.9.2").status_code == 429
    assert valor("hub_limite_rechazos_total", limite="marca") == antes + 1
    assert (
        valor("hub_peticiones_total", ruta="auth/api/v1/auth/marca", metodo="GET", estado="429")
        >= 1
    )


@pytest.fixture
def redis_colgado():
    """A port that accepts connections and never answers (a stopped Redis), as the cache."""
    oyente = socket.socket()
    oyente.bind(("127.0.0.1", 0))
    oyente.listen(64)
    conf = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheRedis",
            "LOCATION": f"redis://127.0.0.1:{oyente.getsockname()[1]}/0",
            "KEY_PREFIX": "metricas-colgado",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    with override_settings(CACHES=conf, HUB_CACHE_PAUSA=30):
        yield caches["default"]
    oyente.close()


def test_a_cache_failure_counts_a_failure_and_a_pause_and_skipped_calls(redis_colgado):
    fallos = valor("hub_cache_fallos_total", tipo="TimeoutError")
    pausas = valor("hub_cache_pausas_total")
    omitidas = valor("hub_cache_omitidas_total")
    with pytest.raises(redis.exceptions.TimeoutError):
        redis_colgado.get("x")
    assert valor("hub_cache_fallos_total", tipo="TimeoutError") == fallos + 1
    assert valor("hub_cache_pausas_total") == pausas + 1
    for _ in range(3):
        with pytest.raises(CachePausada):
            redis_colgado.get("x")
    assert valor("hub_cache_omitidas_total") == omitidas + 3
    # Skipped calls are not new failures, and the pause that is running is not a new one.
    assert valor("hub_cache_fallos_total", tipo="TimeoutError") == fallos + 1
    assert valor("hub_cache_pausas_total") == pausas + 1


def test_a_request_during_a_cache_pause_is_served_and_the_skips_are_counted(client, redis_colgado):
    client.get("/auth/api/v1/ping")  # the first call waits its timeout: the pause begins
    omitidas = valor("hub_cache_omitidas_total")
    assert client.get("/auth/api/v1/ping").status_code == 200
    assert valor("hub_cache_omitidas_total") > omitidas


# --- the endpoint -------------------------------------------------------------------------------


@override_settings(HUB_METRICAS_TOKEN=TOKEN, HUB_METRICAS_REDES=())
def test_with_a_token_the_endpoint_answers_the_text_format(client):
    client.get("/solicitudes/api/v1/ping")
    r = client.get("/metricas/", REMOTE_ADDR="203.0.113.9", **CON_TOKEN)
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/plain; version=")
    assert r["Cache-Control"] == "no-store"
    texto = r.content.decode()
    assert 'hub_peticiones_total{estado="200",metodo="GET",ruta="solicitudes/api/v1/ping"}' in texto
    assert "# TYPE hub_asistente_llamadas_total counter" in texto


@override_settings(HUB_METRICAS_TOKEN=TOKEN, HUB_METRICAS_REDES=())
@pytest.mark.parametrize(
    "autorizacion",
    [None, "Bearer otro-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer", "Bearer ñandú"],
)
def test_without_the_right_token_the_endpoint_is_401(client, autorizacion):
    extra = {"HTTP_AUTHORIZATION": autorizacion} if autorizacion is not None else {}
    r = client.get("/metricas/", **extra)
    assert r.status_code == 401
    assert r["WWW-Authenticate"] == 'Bearer realm="metricas"'
    assert "hub_peticiones" not in r.content.decode()


def test_with_networks_only_those_addresses_may_read(client, settings):
    settings.HUB_METRICAS_REDES = redes_confiables("10.1.0.0/16")
    settings.HUB_METRICAS_TOKEN = ""
    assert client.get("/metricas/", REMOTE_ADDR="10.1.2.3").status_code == 200
    r = client.get("/metricas/", REMOTE_ADDR="10.2.0.1")
    assert r.status_code == 403
    assert "hub_peticiones" not in r.content.decode()
    # A forged X-Forwarded-For is not believed without trusted proxies.
    r = client.get("/metricas/", REMOTE_ADDR="10.2.0.1", HTTP_X_FORWARDED_FOR="10.1.2.3")
    assert r.status_code == 403


def test_with_networks_and_token_both_are_needed(client, settings):
    settings.HUB_METRICAS_REDES = redes_confiables("10.1.0.0/16")
    settings.HUB_METRICAS_TOKEN = TOKEN
    assert client.get("/metricas/", REMOTE_ADDR="10.1.2.3", **CON_TOKEN).status_code == 200
    assert client.get("/metricas/", REMOTE_ADDR="10.1.2.3").status_code == 401
    assert client.get("/metricas/", REMOTE_ADDR="10.9.2.3", **CON_TOKEN).status_code == 403


def test_unconfigured_in_production_the_endpoint_does_not_exist(client, settings):
    settings.HUB_METRICAS_REDES = ()
    settings.HUB_METRICAS_TOKEN = ""
    settings.HUB_PRODUCCION = True
    r = client.get("/metricas/", REMOTE_ADDR="127.0.0.1")
    assert r.status_code == 404
    assert "hub_peticiones" not in r.content.decode()


def test_unconfigured_outside_production_only_this_machine_may_read(client, settings):
    settings.HUB_METRICAS_REDES = ()
    settings.HUB_METRICAS_TOKEN = ""
    settings.HUB_PRODUCCION = False
    assert client.get("/metricas/", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/metricas/", REMOTE_ADDR="::1").status_code == 200
    assert client.get("/metricas/", REMOTE_ADDR="192.0.2.7").status_code == 403


def test_only_get_and_head_are_answered(client, settings):
    settings.HUB_METRICAS_TOKEN = TOKEN
    assert client.post("/metricas/", **CON_TOKEN).status_code == 405
    assert client.head("/metricas/", **CON_TOKEN).status_code == 200


def test_a_short_token_stops_the_start():
    entorno = {
        "DJANGO_SETTINGS_MODULE": "hub.settings",
        "DEBUG": "true",
        "HUB_METRICAS_TOKEN": "corto",
        "PATH": "/usr/bin:/bin",
    }
    salida = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=RAIZ,
        env=entorno,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert salida.returncode != 0
    assert "HUB_METRICAS_TOKEN es demasiado corto" in salida.stderr
