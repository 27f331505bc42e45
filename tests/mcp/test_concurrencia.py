"""Many confirmations of one token at once: exactly one write (DESIGN 9).

On PostgreSQL the 20 calls run truly at the same time, each in its own thread and connection; the
unique id of the spent token makes all but one wait and fail. SQLite serializes writers and its
in-memory test database cannot take concurrent writers at all, so there the same 20 calls, each
from its own thread and connection, are made one after another: every later one must still be
refused by the database constraint, never by memory of this process.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections
from django.test import Client

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria
from tests.mcp_cliente import llamar

pytestmark = pytest.mark.django_db(transaction=True)

HILOS = 20


def test_twenty_simultaneous_confirmations_of_one_token_write_exactly_once(
    como_completo, herramientas_prueba
):
    previa = llamar(Client(), "prueba_grupo", {"nombre": "Carrera"}, **como_completo)
    token = previa.estructura["token_confirmacion"]
    argumentos = {"nombre": "Carrera", "confirmar": True, "token_confirmacion": token}

    en_postgres = connection.vendor == "postgresql"
    salida = threading.Barrier(HILOS)
    turno = threading.Lock() if not en_postgres else None
    resultados: list[str] = []
    errores: list[BaseException] = []

    def confirmar() -> None:
        try:
            salida.wait(timeout=30)
            if turno is not None:
                with turno:
                    r = llamar(Client(), "prueba_grupo", argumentos, **como_completo)
            else:
                r = llamar(Client(), "prueba_grupo", argumentos, **como_completo)
            assert r.status == 200, r.http.content
            resultado = r.resultado
            resultados.append("ok" if not resultado["isError"] else r.estructura["codigo"])
        except BaseException as exc:  # surfaced below: a thread must not fail silently
            errores.append(exc)
        finally:
            connections.close_all()

    hilos = [threading.Thread(target=confirmar) for _ in range(HILOS)]
    for hilo in hilos:
        hilo.start()
    for hilo in hilos:
        hilo.join(timeout=120)

    assert not errores, errores
    assert Counter(resultados) == {"ok": 1, "CONFIRMACION_USADA": HILOS - 1}
    assert Group.objects.filter(name="Carrera").count() == 1
    assert ConfirmacionUsada.objects.count() == 1
    auditados = Counter(
        RegistroAuditoria.objects.filter(herramienta="prueba_grupo").values_list(
            "resultado", flat=True
        )
    )
    assert auditados == {"ok": 2, "CONFIRMACION_USADA": HILOS - 1}  # the preview + one write
