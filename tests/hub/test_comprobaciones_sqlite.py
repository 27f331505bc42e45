"""`make run` starts without the models.W040 warning: on SQLite the inbox's covering indexes need
no INCLUDE (every index carries the rowid, which the task id is), so it is silenced there only."""

from __future__ import annotations

from io import StringIO

import pytest
from django.conf import settings
from django.core import checks
from django.core.management import call_command
from django.db import connection

pytestmark = pytest.mark.django_db


def _avisos_w040() -> list[checks.CheckMessage]:
    return [m for m in checks.run_checks(databases=["default"]) if m.id == "models.W040"]


def test_check_is_quiet_and_the_index_is_the_one_each_database_can_have():
    salida, errores = StringIO(), StringIO()
    call_command("check", databases=["default"], stdout=salida, stderr=errores)
    assert "W040" not in salida.getvalue() + errores.getvalue()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Nothing silenced: PostgreSQL has INCLUDE, and the index covers the id.
            assert _avisos_w040() == []
            assert "models.W040" not in settings.SILENCED_SYSTEM_CHECKS
            cursor.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'sol_tarea_pend_asignada'"
            )
            assert "INCLUDE (id)" in cursor.fetchone()[0]
        else:
            # The warning exists and is silenced on SQLite alone; the index is there without
            # the INCLUDE SQLite does not have.
            assert [m.obj._meta.label for m in _avisos_w040()] == ["solicitudes.Tarea"]
            assert settings.SILENCED_SYSTEM_CHECKS == ["models.W040"]
            indices = connection.introspection.get_constraints(cursor, "solicitudes_tarea")
            assert indices["sol_tarea_pend_asignada"]["columns"] == ["asignada_a_id", "vence_en"]
