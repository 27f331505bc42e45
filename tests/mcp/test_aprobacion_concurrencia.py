"""Many confirmations of one token the person approved on the hub: exactly one write (issue 40).

The pattern of tests/mcp/test_concurrencia.py: on PostgreSQL the calls run truly at once, each in
its own thread and connection; on SQLite, one after another from their own threads.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections
from django.test import Client

from apps.mcp import aprobaciones
from apps.mcp.models import Aprobacion, ConfirmacionUsada, RegistroAuditoria
from tests.mcp_cliente import ajustar, llamar

pytestmark = pytest.mark.django_db(transaction=True)

HILOS = 12


def test_simultaneous_confirmations_of_an_approved_token_write_exactly_once(
    completo, como_completo, herramientas_prueba
):
    ajustar(aprobar_en_el_hub=True)
    previa = llamar(Client(), "prueba_grupo", {"nombre": "Carrera aprobada"}, **como_completo)
    token = previa.estructura["token_confirmacion"]
    argumentos = {"nombre": "Carrera aprobada", "confirmar": True, "token_confirmacion": token}
    aprobaciones.decidir(usuario=completo, clave=Aprobacion.objects.get().clave, aprobar=True)

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
            resultados.append("ok" if not r.resultado["isError"] else r.estructura["codigo"])
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
    assert Group.objects.filter(name="Carrera aprobada").count() == 1
    assert ConfirmacionUsada.objects.count() == 1
    aprobadas = [
        fila.argumentos.get("aprobada_en_el_hub")
        for fila in RegistroAuditoria.objects.filter(herramienta="prueba_grupo", resultado="ok")
    ]
    assert sorted(aprobadas, key=bool) == [None, True]  # the preview, then the one write


def test_approving_and_rejecting_at_once_decide_once(completo, como_completo, herramientas_prueba):
    ajustar(aprobar_en_el_hub=True)
    llamar(Client(), "prueba_grupo", {"nombre": "Decidida"}, **como_completo)
    clave = Aprobacion.objects.get().clave
    en_postgres = connection.vendor == "postgresql"
    salida = threading.Barrier(2)
    turno = threading.Lock() if not en_postgres else None
    decididas: list[str] = []

    def decidir(aprobar: bool) -> None:
        try:
            salida.wait(timeout=30)
            with turno or threading.Lock():
                aprobaciones.decidir(usuario=completo, clave=clave, aprobar=aprobar)
            decididas.append("aprobada" if aprobar else "rechazada")
        except aprobaciones.DecisionImposible:
            decididas.append("imposible")
        finally:
            connections.close_all()

    hilos = [threading.Thread(target=decidir, args=(v,)) for v in (True, False)]
    for hilo in hilos:
        hilo.start()
    for hilo in hilos:
        hilo.join(timeout=60)

    assert sorted(decididas).count("imposible") == 1
    fila = Aprobacion.objects.get()
    assert [fila.estado] == [d for d in decididas if d != "imposible"]
    assert ConfirmacionUsada.objects.filter(jti=fila.jti).exists() == (fila.estado == "rechazada")
