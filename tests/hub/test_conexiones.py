"""Every PostgreSQL connection of the hub runs without parallel workers or JIT."""

from __future__ import annotations

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
