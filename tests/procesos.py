"""Real server processes for tests that must cross process boundaries (shared Redis, shared DB)."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
from psycopg import sql

RAIZ = Path(__file__).resolve().parent.parent
REDIS_POR_DEFECTO = "redis://127.0.0.1:6379/0"
# The production block of the README (its database aside), for tests of the production profile.
PRODUCCION_README = {
    "REDIS_URL": os.environ.get("REDIS_URL") or REDIS_POR_DEFECTO,
    "SECRET_KEY": secrets.token_urlsafe(60),
    "ALLOWED_HOSTS": "hub.entidad.gov.co",
    "HUB_URL_PUBLICA": "https://hub.entidad.gov.co",
    "EMAIL_URL": "smtp+tls://hub:clave-del-correo@smtp.entidad.gov.co:587",
    "HUB_PROXIES_CONFIABLES": "127.0.0.1",
    "HUB_PRODUCCION": "true",
}

# One person per case (with the assistant permission, directly or through a group), each with
# an API key and a personal token; printed as JSON by the process that creates them.
_PREPARAR_MCP = """
import json
from datetime import timedelta
from django.contrib.auth.models import Group, Permission
from django.utils import timezone
from apps.cuentas.models import User
from apps.mcp import services
from apps.mcp.secretos import PREFIJO_TOKEN
from hub import secretos
usar = Permission.objects.get(content_type__app_label="mcp", codename="asistente.usar")
salida = {}
for caso in CASOS:
    persona = User.objects.create_user(username=f"p_{caso}", password="x-clave-larga-1")
    if caso in ("grupo_pierde_permiso", "sale_del_grupo"):
        grupo = Group.objects.create(name=f"g_{caso}")
        grupo.permissions.add(usar)
        persona.groups.add(grupo)
    else:
        persona.user_permissions.add(usar)
    _c, clave = services.crear_clave_api(nombre=f"k_{caso}")
    secreto = secretos.generar(PREFIJO_TOKEN)
    vence = timezone.now() + timedelta(seconds=SEGUNDOS)
    services.guardar_token(usuario=persona, nombre="t", secreto=secreto, vence=vence)
    salida[caso] = {"X-MCP-Api-Key": clave, "X-MCP-User-Token": secreto, "vence": vence.timestamp()}
print(json.dumps(salida))
"""


def puerto_libre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def entorno(tmp_path: Path) -> dict[str, str]:
    """Environment for the servers: a fresh SQLite file and a private prefix in the shared Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW"))}
    env.update(
        DJANGO_SETTINGS_MODULE="hub.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'procesos.sqlite3'}",
        REDIS_URL=os.environ.get("REDIS_URL") or REDIS_POR_DEFECTO,
        HUB_CACHE_PREFIJO=f"procesos-{uuid.uuid4().hex[:8]}",
    )
    return env


def entorno_migrado(tmp_path: Path, **variables: str) -> dict[str, str]:
    """`entorno()` with these variables, its SQLite database migrated."""
    env = {**entorno(tmp_path), **variables}
    manage(env, "migrate", "--noinput")
    return env


@contextmanager
def base_compartida(tmp_path: Path) -> Iterator[dict[str, str]]:
    """`entorno()` on the suite's kind of database, for servers that must share it.

    When the suite runs on PostgreSQL (DATABASE_URL), a fresh database on that server, dropped
    afterwards; otherwise the SQLite file of `entorno()` (WAL, shared by the processes of one host).
    """
    env = entorno(tmp_path)
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield env
        return
    partes = urlsplit(url)
    nombre = f"{partes.path.lstrip('/') or 'hub'}_procesos_{uuid.uuid4().hex[:8]}"
    servidor = urlunsplit(partes._replace(path="/postgres"))
    with psycopg.connect(servidor, autocommit=True) as conexion:
        conexion.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(nombre)))
    env["DATABASE_URL"] = urlunsplit(partes._replace(path=f"/{nombre}"))
    try:
        yield env
    finally:
        with psycopg.connect(servidor, autocommit=True) as conexion:
            conexion.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(nombre))
            )


@contextmanager
def base_migrada(carpeta: Path) -> Iterator[dict[str, str]]:
    """`base_compartida()`, migrated, on the run's cache: Redis when REDIS_URL is set, else a
    file cache of its own under `carpeta`."""
    with base_compartida(carpeta) as env:
        if not os.environ.get("REDIS_URL"):
            del env["REDIS_URL"]
            env["HUB_CACHE_DIR"] = str(carpeta / "cache")
        manage(env, "migrate", "--noinput")
        yield env


def manage(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """manage.py in its own process; with check, a non-zero exit raises."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=RAIZ,
        env=env,
        capture_output=True,
        text=True,
        check=check,
        timeout=300,
    )


def _responde(base: str, limite: float, vivo: Callable[[], bool] = lambda: True) -> bool:
    """Whether the server at `base` answers its ping before `limite` (monotonic), while `vivo`."""
    while True:
        try:
            if httpx.get(f"{base}/auth/api/v1/ping", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        if not vivo() or time.monotonic() > limite:
            return False
        time.sleep(0.2)


@contextmanager
def servidores(env: dict[str, str], cantidad: int = 2):
    """Start `cantidad` gunicorn processes on their own ports; yield their base URLs."""
    procesos, bases = [], []
    try:
        for _ in range(cantidad):
            puerto = puerto_libre()
            procesos.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "gunicorn",
                        "hub.wsgi",
                        "-b",
                        f"127.0.0.1:{puerto}",
                        "--workers",
                        "1",
                        "--log-level",
                        "warning",
                    ],
                    cwd=RAIZ,
                    env=env,
                )
            )
            bases.append(f"http://127.0.0.1:{puerto}")
        limite = time.monotonic() + 60
        for base in bases:
            if not _responde(base, limite):
                raise RuntimeError(f"{base} did not start")
        yield bases
    finally:
        for proceso in procesos:
            proceso.terminate()
        for proceso in procesos:
            proceso.wait(timeout=10)


@dataclass
class Gunicorn:
    """A gunicorn started with gunicorn.conf.py: its address, master process and log."""

    base: str
    proceso: subprocess.Popen
    log: Path
    socket_unix: Path | None = None

    @property
    def puerto(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def lineas_nuevas(self, desde: int) -> str:
        """What the server logged after offset `desde` (each test reads only its own lines)."""
        time.sleep(0.3)  # the access lines follow the answer
        return self.log.read_bytes()[desde:].decode("utf-8", "replace")

    def workers(self) -> list[int]:
        """The master's children right now."""
        hijos = Path(f"/proc/{self.proceso.pid}/task/{self.proceso.pid}/children")
        return [int(x) for x in hijos.read_text().split()]

    def pids_en_log(self, ruta: str, desde: int = 0) -> list[str]:
        """The worker pid of every access line of `ruta` after offset `desde`, in order."""
        nuevo = self.log.read_text()[desde:]
        return re.findall(rf"pid=<(\d+)> \d+ {re.escape(ruta)}$", nuevo, re.M)


@contextmanager
def gunicorn_conf(
    env: dict[str, str],
    carpeta: Path,
    *,
    pids: bool = True,
    socket_unix: Path | None = None,
    **variables: str,
) -> Iterator[Gunicorn]:
    """`gunicorn -c gunicorn.conf.py hub.wsgi` as deployed, on a free port (and `socket_unix`
    too, when given), with `variables` (WEB_CONCURRENCY, GUNICORN_MAX_REQUESTS...); with `pids`,
    its access log names the worker of each line (`pids_en_log`), else the access line is the
    production one."""
    puerto = puerto_libre()
    bind = f"127.0.0.1:{puerto}" + (f",unix:{socket_unix}" if socket_unix else "")
    env = {**env, "HUB_BIND": bind, "HUB_LOG_FORMATO": "texto", **variables}
    if pids:
        env["GUNICORN_CMD_ARGS"] = "--access-logformat 'pid=%(p)s %(s)s %(U)s'"
    log = carpeta / f"gunicorn-{puerto}.log"
    with log.open("w") as salida:
        proceso = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "hub.wsgi"],
            cwd=RAIZ,
            env=env,
            stdout=salida,
            stderr=subprocess.STDOUT,
        )
    servidor = Gunicorn(f"http://127.0.0.1:{puerto}", proceso, log, socket_unix)
    try:
        if not _responde(servidor.base, time.monotonic() + 90, lambda: proceso.poll() is None):
            raise RuntimeError(f"gunicorn did not start: {log.read_text()[-2000:]}")
        yield servidor
    finally:
        proceso.send_signal(signal.SIGTERM)
        try:
            proceso.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proceso.kill()
            proceso.wait(timeout=10)


def credenciales_mcp(env: dict[str, str], casos: list[str], segundos: int) -> dict[str, dict]:
    """People, keys and tokens (valid `segundos`) made by another process, one per case: their
    headers for the assistant and the token's expiry (`vence`, a timestamp)."""
    codigo = f"CASOS = {json.dumps(casos)}\nSEGUNDOS = {segundos}\n{_PREPARAR_MCP}"
    salida = manage(env, "shell", "-c", codigo).stdout
    return json.loads(salida.strip().splitlines()[-1])


def ping_mcp(base: str, cabeceras: dict[str, str]) -> httpx.Response:
    """A JSON-RPC ping to the assistant's endpoint at `base` with these headers."""
    mensaje = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    return httpx.post(f"{base}/mcp/api/mcp", json=mensaje, headers=cabeceras, timeout=30)
