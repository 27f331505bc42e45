"""How an audit row commits: a read-only tool's row without waiting for the disk on PostgreSQL,
a write tool's row in its write's own (durable) transaction. Real transactions, as in a server."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.mcp.models import RegistroAuditoria
from tests.mcp_cliente import llamar

pytestmark = pytest.mark.django_db(transaction=True)

ASINCRONO = "SET LOCAL synchronous_commit TO OFF"


def _sentencias(client, nombre: str, argumentos: dict, cabeceras: dict) -> list[str]:
    with CaptureQueriesContext(connection) as consultas:
        llamar(client, nombre, argumentos, **cabeceras)
    return [q["sql"] for q in consultas.captured_queries]


def test_a_read_tools_row_is_recorded_without_waiting_for_the_disk(
    client, como_completo, herramientas_prueba
):
    antes = RegistroAuditoria.objects.count()
    sentencias = _sentencias(client, "prueba_eco", {"texto": "hola"}, como_completo)
    assert RegistroAuditoria.objects.count() == antes + 1
    insercion = next(i for i, s in enumerate(sentencias) if "INSERT" in s and "mcp_registro" in s)
    if connection.vendor == "postgresql":
        assert sentencias[insercion - 1] == ASINCRONO
    else:  # SQLite has no such setting: the row commits as it always did
        assert ASINCRONO not in sentencias


def test_a_write_tools_row_commits_with_its_write_waiting_for_the_disk(
    client, como_completo, herramientas_prueba
):
    previa = llamar(client, "prueba_grupo", {"nombre": "Grupo durable"}, **como_completo)
    confirmar = {
        "nombre": "Grupo durable",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    sentencias = _sentencias(client, "prueba_grupo", confirmar, como_completo)
    assert RegistroAuditoria.objects.filter(herramienta="prueba_grupo", resultado="ok").exists()
    assert ASINCRONO not in sentencias
