"""Cheap worker recycling (issue 23, item 8): gunicorn.conf.py loads the application in the master
and forks the workers from it. Nothing that must not be shared crosses the fork: each worker opens
its own database and Redis connections (seen from the kernel: no socket held by two processes, none
by the master), and requests go on being answered while workers are recycled."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.procesos import base_compartida, gunicorn_conf, manage

pytestmark = pytest.mark.procesos

SALUD = "/salud/"  # a database query and a cache round trip on every request
RECICLAR = 20  # GUNICORN_MAX_REQUESTS: a worker is replaced after 20-22 requests


def _conexiones(pid: int) -> dict[int, int] | None:
    """Socket inode -> remote port of every established TCP connection the process holds (None
    when the process is gone: a worker recycled between listing it and reading it)."""
    try:
        return _conexiones_vivas(pid)
    except FileNotFoundError:
        return None


def _conexiones_vivas(pid: int) -> dict[int, int]:
    inodos = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            destino = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if destino.startswith("socket:["):
            inodos.add(int(destino[len("socket:[") : -1]))
    remotas = {}
    for tabla in ("tcp", "tcp6"):
        for linea in Path(f"/proc/{pid}/net/{tabla}").read_text().splitlines()[1:]:
            campos = linea.split()
            inodo, estado = int(campos[9]), campos[3]
            if inodo in inodos and estado == "01":  # ESTABLISHED
                remotas[inodo] = int(campos[2].rsplit(":", 1)[1], 16)
    return remotas


def _puertos(env: dict[str, str]) -> dict[str, int]:
    """The servers each worker must reach on its own: Redis, and PostgreSQL when in use."""
    puertos = {"redis": urlsplit(env["REDIS_URL"]).port or 6379}
    if env["DATABASE_URL"].startswith(("postgres://", "postgresql://")):
        puertos["postgresql"] = urlsplit(env["DATABASE_URL"]).port or 5432
    return puertos


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("reciclado")
    with base_compartida(carpeta) as env:
        manage(env, "migrate", "--noinput")
        with gunicorn_conf(
            env, carpeta, WEB_CONCURRENCY="2", GUNICORN_MAX_REQUESTS=str(RECICLAR)
        ) as gunicorn:
            yield gunicorn, env


def _salud(base: str) -> int:
    return httpx.get(base + SALUD, timeout=20, headers={"Connection": "close"}).status_code


def _cada_worker_con_lo_suyo(gunicorn, env) -> dict[int, dict[int, int]]:
    """Requests until every live worker holds a connection to each server; then each worker's
    connections (read again when a worker was recycled between listing and reading it)."""
    puertos = set(_puertos(env).values())
    por_worker: dict[int, dict[int, int]] = {}
    for _ in range(6):
        with ThreadPoolExecutor(4) as hilos:
            assert list(hilos.map(lambda _i: _salud(gunicorn.base), range(4))) == [200] * 4
        leidas = {pid: _conexiones(pid) for pid in gunicorn.workers()}
        if None in leidas.values():
            continue  # a worker was recycled meanwhile: read the live ones again
        por_worker = {pid: c for pid, c in leidas.items() if c is not None}
        if all(puertos <= set(c.values()) for c in por_worker.values()):
            break
    assert por_worker, "no reading of the live workers without a recycle in the middle"
    return por_worker


def _comprobar_propias(gunicorn, env, por_worker: dict[int, dict[int, int]]) -> None:
    for nombre, puerto in _puertos(env).items():
        dueños: dict[int, int] = {}
        for pid, conexiones in por_worker.items():
            suyas = [inodo for inodo, remoto in conexiones.items() if remoto == puerto]
            assert suyas, f"worker {pid} has no {nombre} connection of its own"
            for inodo in suyas:
                # One socket held by two processes would be a connection inherited across the fork.
                assert inodo not in dueños, (
                    f"{nombre} socket {inodo} shared by {pid} and {dueños[inodo]}"
                )
                dueños[inodo] = pid
        maestro = _conexiones_vivas(gunicorn.proceso.pid)
        assert puerto not in maestro.values(), f"the master holds a {nombre} connection"


def test_the_application_is_loaded_in_the_master_before_it_forks(servidor):
    gunicorn, _ = servidor
    mapas = Path(f"/proc/{gunicorn.proceso.pid}/maps").read_text()
    # Pillow's C core: only the application imports it (the brand's images), never gunicorn.
    assert "PIL/_imaging" in mapas
    for pid in gunicorn.workers():
        assert Path(f"/proc/{pid}/status").read_text().count(f"PPid:\t{gunicorn.proceso.pid}") == 1


def test_each_worker_holds_its_own_database_and_redis_connections_and_the_master_none(servidor):
    gunicorn, env = servidor
    por_worker = _cada_worker_con_lo_suyo(gunicorn, env)
    assert len(por_worker) == 2
    _comprobar_propias(gunicorn, env, por_worker)


def test_requests_keep_being_answered_while_workers_are_recycled(servidor):
    gunicorn, env = servidor
    antes = set(gunicorn.workers())
    with ThreadPoolExecutor(4) as hilos:
        estados = list(hilos.map(lambda _i: _salud(gunicorn.base), range(120)))
    assert estados == [200] * 120
    # Each worker serves at most 22 requests: 120 needed at least five of them.
    servidos_por = set(gunicorn.pids_en_log(SALUD))
    assert len(servidos_por) >= 5
    assert not set(gunicorn.workers()) & antes  # the first two were replaced
    assert gunicorn.proceso.poll() is None
    # The recycled workers too: their own connections, none inherited.
    _comprobar_propias(gunicorn, env, _cada_worker_con_lo_suyo(gunicorn, env))
