"""Many confirmations of one token at once: exactly one write (docs/decisiones/asistente.md).

On PostgreSQL the 20 calls run truly at the same time, each in its own thread and connection; the
unique id of the spent token makes all but one wait and fail. SQLite serializes writers and its
in-memory test database cannot take concurrent writers at all, so there the same 20 calls, each
from its own thread and connection, are made one after another: every later one must still be
refused by the database constraint, never by memory of this process.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria
from tests.mcp_cliente import a_la_vez, llamar

pytestmark = pytest.mark.django_db(transaction=True)

HILOS = 20


def test_twenty_simultaneous_confirmations_of_one_token_write_exactly_once(
    como_completo, herramientas_prueba
):
    previa = llamar(Client(), "prueba_grupo", {"nombre": "Carrera"}, **como_completo)
    token = previa.estructura["token_confirmacion"]
    argumentos = {"nombre": "Carrera", "confirmar": True, "token_confirmacion": token}

    def confirmar() -> str:
        r = llamar(Client(), "prueba_grupo", argumentos, **como_completo)
        assert r.status == 200, r.http.content
        return "ok" if not r.resultado["isError"] else r.estructura["codigo"]

    resultados = a_la_vez([confirmar] * HILOS)
    assert Counter(resultados) == {"ok": 1, "CONFIRMACION_USADA": HILOS - 1}
    assert Group.objects.filter(name="Carrera").count() == 1
    assert ConfirmacionUsada.objects.count() == 1
    auditados = Counter(
        RegistroAuditoria.objects.filter(herramienta="prueba_grupo").values_list(
            "resultado", flat=True
        )
    )
    assert auditados == {"ok": 2, "CONFIRMACION_USADA": HILOS - 1}  # the preview + one write
