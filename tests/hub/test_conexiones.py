"""Every PostgreSQL connection of the hub runs without parallel workers or JIT, and prepares the
statements it runs again."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from hub.operacion.conexiones import AJUSTES, ajustar_sesion

pytestmark = pytest.mark.django_db


def test_each_postgresql_session_has_no_parallel_workers_and_no_jit():
    if connection.vendor != "postgresql":
        # SQLite has neither setting: the receiver sends it nothing.
        with CaptureQueriesContext(connection) as consultas:
            ajustar_sesion(sender=type(connection), connection=connection)
        assert AJUSTES and len(consultas) == 0
        return
    nueva = connection.copy()  # a fresh session: the signal's work, not a leftover
    try:
        with nueva.cursor() as cursor:
            cursor.execute("SHOW max_parallel_workers_per_gather")
            assert cursor.fetchone() == ("0",)
            cursor.execute("SHOW jit")
            assert cursor.fetchone() == ("off",)
    finally:
        nueva.close()


def _opciones(**env) -> dict:
    """The database OPTIONS hub.settings builds from this environment (a fresh process)."""
    leer = "s.DATABASES['default'].get('OPTIONS', {})"
    programa = f"import json, hub.settings as s; print(json.dumps({leer}))"
    resultado = subprocess.run(
        [sys.executable, "-c", programa],
        env={"PATH": "/usr/bin:/bin", "SECRET_KEY": secrets.token_urlsafe(60), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(resultado.stdout)


def test_postgresql_binds_server_side_and_prepares_unless_told_not_to():
    postgresql = {"DATABASE_URL": "postgres://hub@127.0.0.1:5432/hub"}
    preparadas = {"server_side_binding": True, "prepare_threshold": 5}
    assert _opciones(**postgresql).items() >= preparadas.items()
    apagadas = _opciones(**postgresql, HUB_SENTENCIAS_PREPARADAS="false")
    assert "server_side_binding" not in apagadas and "prepare_threshold" not in apagadas
    # SQLite has no server-side parameters: nothing of the kind is passed to it.
    assert "server_side_binding" not in _opciones(DATABASE_URL="sqlite:///:memory:")


def test_on_postgresql_a_statement_run_more_than_five_times_is_prepared():
    if connection.vendor != "postgresql":
        assert "server_side_binding" not in connection.settings_dict["OPTIONS"]
        return
    nueva = connection.copy()  # a fresh session: no statement prepared yet
    try:
        with nueva.cursor() as cursor:
            for _ in range(6):
                cursor.execute("SELECT %s::int + 1", [41])
                assert cursor.fetchone() == (42,)
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            preparadas = [fila[0] for fila in cursor.fetchall()]
        assert any("$1::int + 1" in texto for texto in preparadas), preparadas
    finally:
        nueva.close()
