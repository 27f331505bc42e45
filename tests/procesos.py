"""Real server processes for tests that must cross process boundaries (shared Redis, shared DB)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=RAIZ,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )


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
            while True:
                try:
                    if httpx.get(f"{base}/auth/api/v1/ping", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > limite:
                    raise RuntimeError(f"{base} did not start")
                time.sleep(0.2)
        yield bases
    finally:
        for proceso in procesos:
            proceso.terminate()
        for proceso in procesos:
            proceso.wait(timeout=10)
