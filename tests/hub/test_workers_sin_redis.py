"""The embedded default as gunicorn.conf.py and the Dockerfile start it: one host, several
workers, no Redis. Every worker counts the same limits and serves the same brand."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.procesos import RAIZ, base_compartida, manage, puerto_libre

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
        puerto = puerto_libre()
        env.update(
            HUB_BIND=f"127.0.0.1:{puerto}",
            WEB_CONCURRENCY="2",
            HUB_LOG_FORMATO="texto",
            # The production access line, plus the worker's pid: who served each request.
            GUNICORN_CMD_ARGS="--access-logformat 'pid=%(p)s %(s)s %(U)s'",
        )
        salida = (carpeta / "gunicorn.log").open("w+")
        proceso = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "hub.wsgi"],
            cwd=RAIZ,
            env=env,
            stdout=salida,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{puerto}"
        try:
            limite = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/auth/api/v1/ping", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < limite, "gunicorn did not start"
                time.sleep(0.2)
            yield base, env, carpeta / "gunicorn.log"
        finally:
            proceso.send_signal(signal.SIGTERM)
            proceso.wait(timeout=30)
            salida.close()


def _pids(log, *, desde: int, ruta: str) -> set[str]:
    """Workers that served `ruta` in the log written after offset `desde`."""
    nuevo = log.read_text()[desde:]
    return set(re.findall(rf"pid=<(\d+)> \d+ {re.escape(ruta)}$", nuevo, re.MULTILINE))


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
    base, _env, log = servidor
    desde = len(log.read_text())
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
    assert len(_pids(log, desde=desde, ruta=VERIFICAR)) == 2, "both workers must have served"


def test_a_brand_change_is_served_by_every_worker_at_once(servidor):
    base, env, log = servidor
    antes = httpx.get(f"{base}/auth/api/v1/auth/marca", timeout=10).headers["ETag"]
    desde = len(log.read_text())
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
    assert len(_pids(log, desde=desde, ruta="/auth/api/v1/auth/marca")) == 2
