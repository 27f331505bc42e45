"""The cache-coherence tests' tools: a clock moved by hand, a cache that fails (a hung Redis of
the test's own, or an unwritable file cache), "another process", and the change made while the
cache fails (tests/hub/test_coherencia.py, tests/autorizacion/test_coherencia_oauth.py)."""

from __future__ import annotations

import copy
import fcntl
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import IO

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from hub.cache import coherencia


@dataclass
class Reloj:
    """time.monotonic() of hub.cache.almacenes (the breaker's pause) and hub.cache.coherencia,
    moved by hand."""

    ahora: float

    def mover(self, segundos: float) -> None:
        self.ahora += segundos


@pytest.fixture
def reloj(monkeypatch):
    r = Reloj(time.monotonic())
    falso = SimpleNamespace(monotonic=lambda: r.ahora, time=time.time)
    monkeypatch.setattr("hub.cache.almacenes.time", falso)
    monkeypatch.setattr("hub.cache.coherencia.time", falso, raising=False)
    return r


def _puerto_libre() -> tuple[int, IO[bytes]]:
    """A port in 6410-6419 held for this test: its lock file keeps two test runs on one machine
    (CI's two suites, a developer's) from both finding it free and starting a server on it."""
    for puerto in range(6410, 6420):
        cerrojo = open(Path(tempfile.gettempdir()) / f"hub-coherencia-{puerto}.lock", "wb")  # noqa: SIM115
        try:
            fcntl.flock(cerrojo, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            cerrojo.close()
            continue
        try:
            redis.Redis(port=puerto, socket_connect_timeout=0.2).ping()
        except redis.exceptions.ConnectionError:
            return puerto, cerrojo
        cerrojo.close()
    raise RuntimeError("no free port in 6410-6419")


def _arrancar_redis(puerto: int, carpeta: Path, *opciones: str) -> subprocess.Popen:
    """A redis-server on `puerto` that loads `carpeta`/dump.rdb if there is one."""
    proceso = subprocess.Popen(
        [
            *("redis-server", "--port", str(puerto), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--dir", str(carpeta), *opciones),
        ],
        stdout=subprocess.DEVNULL,
    )
    limite = time.monotonic() + 10
    while True:
        try:
            redis.Redis(port=puerto).ping()
            return proceso
        except redis.exceptions.ConnectionError:
            if time.monotonic() > limite:
                raise
            time.sleep(0.05)


@dataclass
class RedisPropio:
    proceso: subprocess.Popen
    puerto: int
    carpeta: Path

    def instantanea(self) -> None:
        """An RDB snapshot of the server as it is now (what `save` or a backup would keep)."""
        redis.Redis(port=self.puerto).save()

    def reiniciar_desde_la_instantanea(self) -> None:
        """The server dies and comes back from its last snapshot (a crash, an OOM kill, a host
        rebooted): what was written after the snapshot is gone, the snapshot's keys are back."""
        self.proceso.kill()
        self.proceso.wait(timeout=10)
        self.proceso = _arrancar_redis(self.puerto, self.carpeta)

    def colgar(self) -> None:
        """Stop the server; a read times out and the breaker pauses the cache, as under load
        (an invalidation sent into the hung socket would be run later: paused, none is sent)."""
        os.kill(self.proceso.pid, signal.SIGSTOP)
        with pytest.raises(redis.exceptions.TimeoutError):
            caches["default"].get("sonda")

    def seguir(self) -> None:
        os.kill(self.proceso.pid, signal.SIGCONT)


@pytest.fixture
def opciones_redis() -> list[str]:
    """More options for `redis_propio`'s server (a test overrides it)."""
    return []


@pytest.fixture
def redis_propio(tmp_path, opciones_redis) -> Iterator[RedisPropio]:
    """A redis-server of this test only (never the shared one), as the default cache."""
    puerto, cerrojo = _puerto_libre()
    try:
        propio = RedisPropio(_arrancar_redis(puerto, tmp_path, *opciones_redis), puerto, tmp_path)
    except BaseException:
        cerrojo.close()
        raise
    conf = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheRedis",
            "LOCATION": f"redis://127.0.0.1:{puerto}/0",
            "KEY_PREFIX": "coherencia",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    try:
        with override_settings(CACHES=conf, HUB_CACHE_PAUSA=5):
            yield propio
    finally:
        os.kill(propio.proceso.pid, signal.SIGCONT)
        propio.proceso.terminate()
        propio.proceso.wait(timeout=10)
        cerrojo.close()  # the port is free for the next test once its server is gone


def _solo_lectura(carpeta: Path, si: bool) -> None:
    """The file cache's folder and files unwritable (chmod; root also needs `chattr +i`)."""
    archivos = [carpeta, *carpeta.iterdir()]
    if os.geteuid() == 0 and not si:
        subprocess.run(["chattr", "-i", *map(str, archivos)], check=True)
    for ruta in archivos:
        ruta.chmod((0o555 if si else 0o755) if ruta.is_dir() else (0o444 if si else 0o644))
    if os.geteuid() == 0 and si:
        subprocess.run(["chattr", "+i", *map(str, archivos)], check=True)


@dataclass
class ArchivoPropio:
    carpeta: Path

    def colgar(self) -> None:
        _solo_lectura(self.carpeta, True)
        caches["default"].close()  # the next use opens the files again: as they are now

    def seguir(self) -> None:
        _solo_lectura(self.carpeta, False)
        caches["default"].close()


@pytest.fixture
def archivo_propio(tmp_path) -> Iterator[ArchivoPropio]:
    """The default configuration's file cache, in a folder of this test only."""
    carpeta = tmp_path / "cache"
    conf = {"default": {"BACKEND": "hub.cache.almacenes.CacheArchivo", "LOCATION": str(carpeta)}}
    with override_settings(CACHES=conf):
        caches["default"].set("arranque", 1)
        archivo = ArchivoPropio(carpeta)
        try:
            yield archivo
        finally:
            _solo_lectura(carpeta, False)
            caches["default"].close()


@dataclass
class RedisSinEscritura:
    """The test's own Redis answering reads and refusing every write (OOM under `noeviction`,
    as a full Redis does): an error reply, not a failure the breaker pauses for."""

    propio: RedisPropio

    def colgar(self) -> None:
        servidor = redis.Redis(port=self.propio.puerto)
        servidor.config_set("maxmemory-policy", "noeviction")
        servidor.config_set("maxmemory", 1)
        with pytest.raises(redis.exceptions.ResponseError, match="maxmemory"):
            caches["default"].set("sonda", 1)

    def seguir(self) -> None:
        redis.Redis(port=self.propio.puerto).config_set("maxmemory", 0)


@pytest.fixture
def redis_sin_escritura(redis_propio) -> RedisSinEscritura:
    return RedisSinEscritura(redis_propio)


@pytest.fixture(params=["redis_colgado", "archivo_sin_escritura", "redis_sin_escritura"])
def cache_que_falla(request):
    """The cache that fails during the change: a hung Redis, an unwritable file cache, or a
    Redis that refuses writes."""
    fixture = {"redis_colgado": "redis_propio", "archivo_sin_escritura": "archivo_propio"}
    return request.getfixturevalue(fixture.get(request.param, request.param))


@pytest.fixture
def otro_proceso() -> Callable[[], Callable[[], None]]:
    """`recordar()` before a change; calling what it returns after the change puts back this
    process's reading of the database as it was, like a worker that did not make the change."""

    def recordar() -> Callable[[], None]:
        guardado = copy.copy(vars(coherencia._estado))

        def volver() -> None:
            vars(coherencia._estado).update(guardado)

        return volver

    return recordar


def cambiar_con_la_cache_fallando(
    cache_que_falla, reloj, otro_proceso, cambiar: Callable[[], None]
) -> None:
    """Make the change with the cache failing; the cache comes back; the bound passes."""
    volver = otro_proceso()
    cache_que_falla.colgar()
    try:
        cambiar()
    finally:
        cache_que_falla.seguir()
    volver()
    reloj.mover(coherencia.COTA_SEGUNDOS)
