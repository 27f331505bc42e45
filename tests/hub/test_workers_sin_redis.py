"""The embedded default as gunicorn.conf.py and the Dockerfile start it: one host, several
workers, no Redis. Every worker counts the same limits and serves the same brand."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.procesos import base_compartida, gunicorn_conf, manage

pytestmark = pytest.mark.procesos

VERIFICAR = "/presupuesto/api/v1/firmas/verificar/00000000-0000-0000-0000-000000000000"


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    """gunicorn -c gunicorn.conf.py with two workers, no REDIS_URL; its access log keeps pids."""
    carpeta = tmp_path_factory.mktemp("workers")
    with base_compartida(carpeta) as env:
        del env["REDIS_URL"]
        env["HUB_CACHE_DIR"] = str(carpeta / "cache")
        manage(env, "migrate", "--noinput")
        with gunicorn_conf(env, carpeta, WEB_CONCURRENCY="2") as gunicorn:
            yield gunicorn, env


def _verificar(base: str) -> httpx.Response:
    # A new connection each time: the kernel hands each to whichever worker accepts first.
    return httpx.get(base + VERIFICAR, timeout=10, headers={"Connection": "close"})


def _ronda(base: str) -> list[httpx.Response]:
    with ThreadPoolExecutor(4) as hilos:
        return list(hilos.map(lambda _i: _verificar(base), range(70)))


def _esperar_ventana_nueva(respuestas: list[httpx.Response]) -> None:
    """Sleep until the limit's current window is over (Retry-After of the refusals; without a
    refusal, a whole minute, the longest window)."""
    esperas = [int(r.headers["Retry-After"]) for r in respuestas if r.status_code == 429]
    time.sleep((max(esperas) if esperas else 60) + 1)


def test_two_workers_without_redis_allow_exactly_the_verification_limit(servidor):
    gunicorn, _env = servidor
    base, desde = gunicorn.base, len(gunicorn.log.read_text())
    for _intento in range(2):
        respuestas = _ronda(base)
        servidas = [r for r in respuestas if r.status_code == 404]
        restantes = sorted(int(r.headers["X-RateLimit-Remaining"]) for r in servidas)
        # A fixed window may end mid-round; then the count restarts and we try once more, in a
        # window of its own: the new one already holds part of this round's count.
        if restantes == list(range(60)):
            break
        _esperar_ventana_nueva(respuestas)
    assert restantes == list(range(60))  # 60 answered, each with its own remaining count
    rechazadas = [r for r in respuestas if r.status_code == 429]
    assert len(rechazadas) == 10
    assert all(r.json()["error"]["code"] == "RATE_LIMIT" for r in rechazadas)
    assert len(set(gunicorn.pids_en_log(VERIFICAR, desde))) == 2, "both workers must have served"


def test_a_brand_change_is_served_by_every_worker_at_once(servidor):
    gunicorn, env = servidor
    base = gunicorn.base
    antes = httpx.get(f"{base}/auth/api/v1/auth/marca", timeout=10).headers["ETag"]
    desde = len(gunicorn.log.read_text())
    manage(
        env,
        "shell",
        "-c",
        "from apps.marca import services\n"
        "services.actualizar_marca(cambios={'color_primario': '#5B2A86'})",
    )
    with ThreadPoolExecutor(4) as hilos:
        etiquetas = list(
            hilos.map(
                lambda _i: httpx.get(
                    f"{base}/auth/api/v1/auth/marca", timeout=10, headers={"Connection": "close"}
                ).headers["ETag"],
                range(20),
            )
        )
    assert antes not in etiquetas
    assert len(set(etiquetas)) == 1
    assert len(set(gunicorn.pids_en_log("/auth/api/v1/auth/marca", desde))) == 2
