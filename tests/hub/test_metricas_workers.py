"""Metrics under gunicorn.conf.py with several workers (issue 23, item 9): a scrape adds up every
worker's values, recycled workers' included, whichever worker answers it; the folder stays
bounded."""

from __future__ import annotations

import re
import signal
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.procesos import base_compartida, gunicorn_conf, manage

pytestmark = pytest.mark.procesos

TOKEN = "token-de-metricas-para-la-prueba-de-workers"
PING = "/solicitudes/api/v1/ping"
MUESTRA = 'hub_peticiones_total{estado="200",metodo="GET",ruta="solicitudes/api/v1/ping"}'


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("metricas")
    with base_compartida(carpeta) as env:
        manage(env, "migrate", "--noinput")
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # gunicorn.conf.py's own folder
        with gunicorn_conf(
            env,
            carpeta,
            WEB_CONCURRENCY="2",
            GUNICORN_MAX_REQUESTS="10",  # a worker is replaced after 10 or 11 requests
            HUB_METRICAS_TOKEN=TOKEN,
        ) as gunicorn:
            yield gunicorn


def _leer(base: str) -> str:
    r = httpx.get(base + "/metricas/", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=20)
    assert r.status_code == 200
    return r.text


def _valor(texto: str, muestra: str) -> float:
    encontrada = re.search(rf"^{re.escape(muestra)} (\S+)$", texto, re.M)
    return float(encontrada.group(1)) if encontrada else 0.0


def test_a_scrape_adds_up_every_worker_recycled_ones_included(servidor):
    antes = _valor(_leer(servidor.base), MUESTRA)

    def ping(_i: int) -> int:
        return httpx.get(
            servidor.base + PING, timeout=20, headers={"Connection": "close"}
        ).status_code

    with ThreadPoolExecutor(3) as hilos:
        assert list(hilos.map(ping, range(45))) == [200] * 45
    # At most 11 requests per worker: the 45 were served by at least five of them, most gone.
    assert len(set(servidor.pids_en_log(PING))) >= 5
    for _ in range(3):  # whichever worker answers the scrape, the same sum
        assert _valor(_leer(servidor.base), MUESTRA) == antes + 45


def test_the_folder_holds_the_live_workers_and_the_archives_only(servidor):
    carpeta = Path(tempfile.gettempdir(), f"hub-metricas-{servidor.proceso.pid}")
    for _ in range(25):
        _leer(servidor.base)  # scrapes are requests too: more recycling
    vivos = {str(p) for p in servidor.workers()}
    for tipo in ("counter", "histogram"):
        duenos = {f.name[len(tipo) + 1 : -3] for f in carpeta.glob(f"{tipo}_*.db")}
        assert "archivo" in duenos
        assert duenos - {"archivo"} <= vivos  # a dead worker's file was folded and removed


def test_without_the_token_the_live_endpoint_is_401(servidor):
    r = httpx.get(servidor.base + "/metricas/", timeout=20)
    assert r.status_code == 401
    assert "hub_peticiones" not in r.text
    r = httpx.get(
        servidor.base + "/metricas/", headers={"Authorization": "Bearer " + "x" * 43}, timeout=20
    )
    assert r.status_code == 401


def test_the_folder_it_made_goes_away_with_the_master(tmp_path):
    with base_compartida(tmp_path) as env:
        manage(env, "migrate", "--noinput")
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        with gunicorn_conf(env, tmp_path, WEB_CONCURRENCY="1") as gunicorn:
            carpeta = Path(tempfile.gettempdir(), f"hub-metricas-{gunicorn.proceso.pid}")
            assert carpeta.is_dir()
            gunicorn.proceso.send_signal(signal.SIGTERM)
            gunicorn.proceso.wait(timeout=30)
        assert not carpeta.exists()
