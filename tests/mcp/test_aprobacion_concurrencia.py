"""Many confirmations of one token the person approved on the hub: exactly one write (issue 40).

The pattern of tests/mcp/test_concurrencia.py: on PostgreSQL the calls run truly at once, each in
its own thread and connection; on SQLite, one after another from their own threads.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from apps.mcp import aprobaciones
from apps.mcp.models import Aprobacion, ConfirmacionUsada, RegistroAuditoria
from tests.mcp_cliente import a_la_vez, ajustar, llamar

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

    def confirmar() -> str:
        r = llamar(Client(), "prueba_grupo", argumentos, **como_completo)
        assert r.status == 200, r.http.content
        return "ok" if not r.resultado["isError"] else r.estructura["codigo"]

    resultados = a_la_vez([confirmar] * HILOS)
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

    def decidir(aprobar: bool) -> str:
        try:
            aprobaciones.decidir(usuario=completo, clave=clave, aprobar=aprobar)
        except aprobaciones.DecisionImposible:
            return "imposible"
        return "aprobada" if aprobar else "rechazada"

    decididas = a_la_vez([lambda: decidir(True), lambda: decidir(False)])

    assert sorted(decididas).count("imposible") == 1
    fila = Aprobacion.objects.get()
    assert [fila.estado] == [d for d in decididas if d != "imposible"]
    assert ConfirmacionUsada.objects.filter(jti=fila.jti).exists() == (fila.estado == "rechazada")
