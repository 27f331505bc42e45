"""The servers of `make bench`: the hub and the bare limit under gunicorn, the SDK peer under
uvicorn; started in their own process groups and stopped by pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench import peticiones as p

if TYPE_CHECKING:
    from bench.correr import Base, Config

RAIZ = Path(__file__).resolve().parent.parent
VAR = RAIZ / "var" / "bench"
PY = sys.executable


@dataclass
class Servidor:
    """One started server: its name, port, process (the master) and log file."""

    nombre: str
    puerto: int
    proceso: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.puerto}"

    def workers(self) -> list[int]:
        """Child pids of the master (gunicorn or uvicorn workers)."""
        hijos = Path(f"/proc/{self.proceso.pid}/task/{self.proceso.pid}/children")
        try:
            return [int(x) for x in hijos.read_text().split()]
        except OSError:
            return []


def _gunicorn(
    cfg: Config,
    env: dict[str, str],
    app: str,
    puerto: int,
    *,
    workers: int | None = None,
    reciclar: int | None = None,
) -> list[str]:
    # The production config (gunicorn.conf.py, preload included), with three overrides said
    # out loud:
    # - workers: one per core (WEB_CONCURRENCY), as the issue asks;
    # - --max-requests 0: no recycling, or the memory figure would measure fresh workers and
    #   the throughput would include restarts (the recycling row, bench/reciclado.py, measures
    #   them apart: `reciclar` sets GUNICORN_MAX_REQUESTS, whose jitter gunicorn.conf.py derives);
    # - access log to /dev/null: the line is still formatted and written (its cost stays in
    #   the figures), but a run does not fill the disk.
    env.update(WEB_CONCURRENCY=str(workers or cfg.workers), HUB_BIND=f"127.0.0.1:{puerto}")
    args = [PY, "-m", "gunicorn", "-c", "gunicorn.conf.py", app]
    if reciclar is None:
        args += ["--max-requests", "0"]
    else:
        env["GUNICORN_MAX_REQUESTS"] = str(reciclar)
    return [*args, "--access-logfile", "/dev/null"]


def arrancar(cfg: Config, base: Base) -> list[Servidor]:
    """Hub, limit and peer, each in its own process group (stopped by pid at the end)."""
    servidores = []
    definiciones = [
        (p.HUB, "hub.wsgi", cfg.puerto),
        (p.LIMITE, "bench.limite.wsgi", cfg.puerto + 1),
    ]
    for nombre, app, puerto in definiciones:
        env = base.entorno(cfg)
        args = _gunicorn(cfg, env, app, puerto)
        servidores.append(_lanzar(nombre, puerto, args, env))
    env = base.entorno(cfg)
    # The SDK logs "Terminating session" at INFO on every stateless request; the peer gets no
    # per-request logging at all (nor an access log), while the hub keeps its access line.
    env["HUB_LOG_LEVEL"] = "WARNING"
    args = [
        PY,
        "-m",
        "uvicorn",
        "bench.peer.servidor:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(cfg.puerto + 2),
        "--workers",
        str(cfg.workers),
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    servidores.append(_lanzar(p.PEER, cfg.puerto + 2, args, env))
    for servidor in servidores:
        esperar(servidor)
    return servidores


def arrancar_hub(
    cfg: Config, base: Base, nombre: str, puerto: int, *, workers: int, reciclar: int | None
) -> Servidor:
    """One more hub server with its own number of workers and recycling (None: never)."""
    env = base.entorno(cfg)
    args = _gunicorn(cfg, env, "hub.wsgi", puerto, workers=workers, reciclar=reciclar)
    servidor = _lanzar(nombre, puerto, args, env)
    esperar(servidor)
    return servidor


def _lanzar(nombre: str, puerto: int, args: list[str], env: dict[str, str]) -> Servidor:
    """Start `args` in a new session (its own process group), output to var/bench."""
    log = VAR / f"servidor-{nombre}.log"
    with log.open("w") as salida:
        proceso = subprocess.Popen(  # noqa: S603 - our own fixed command lines
            args, cwd=RAIZ, env=env, stdout=salida, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Servidor(nombre, puerto, proceso, log)


def esperar(servidor: Servidor, segundos: float = 90) -> None:
    """Wait until the server answers HTTP at /; stop the run if it dies or stays silent."""
    limite = time.monotonic() + segundos
    while time.monotonic() < limite:
        if servidor.proceso.poll() is not None:
            raise SystemExit(f"{servidor.nombre} terminó al arrancar; vea {servidor.log}")
        try:
            with urllib.request.urlopen(servidor.url + "/", timeout=2):  # noqa: S310
                pass
            return
        except urllib.error.HTTPError:
            return  # it answers (404/405 at /): it is up
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{servidor.nombre} no respondió en {segundos} s; vea {servidor.log}")


def detener(servidores: list[Servidor]) -> None:
    """SIGTERM every master, then SIGKILL the process group of any that outlives 20 s."""
    for servidor in servidores:
        if servidor.proceso.poll() is None:
            servidor.proceso.send_signal(signal.SIGTERM)
    for servidor in servidores:
        try:
            servidor.proceso.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(servidor.proceso.pid, signal.SIGKILL)
            servidor.proceso.wait(timeout=10)


def rss_kib(pid: int) -> int | None:
    """VmRSS of a process in KiB; None once it is gone."""
    try:
        for linea in Path(f"/proc/{pid}/status").read_text().splitlines():
            if linea.startswith("VmRSS:"):
                return int(linea.split()[1])
    except OSError:
        return None
    return None
