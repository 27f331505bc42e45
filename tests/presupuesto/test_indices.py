"""The search columns are trigram-indexed on PostgreSQL (and the same migration runs on SQLite)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

INDICES = {
    "presupuesto_proyecto_trgm",
    "presupuesto_linea_trgm",
    "presupuesto_cdp_trgm",
    "presupuesto_rp_trgm",
}


def test_trigram_indexes_exist_exactly_on_postgresql():
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE 'presupuesto_%%'"
            )
            definiciones = dict(cursor.fetchall())
            assert set(definiciones) >= INDICES
            assert all("gin_trgm_ops" in definiciones[n] for n in INDICES)
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
            assert INDICES.isdisjoint({fila[0] for fila in cursor.fetchall()})
