"""Racing writers never overdraw: RPs against one CDP, CDPs against one assignment.

On PostgreSQL the operations run in real threads, each with its own connection, released
together by a barrier; SQLite (one writer at a time) runs the same operations one by one.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import close_old_connections, connection

from apps.presupuesto import services
from apps.presupuesto.models import Cdp
from apps.presupuesto.services import ErrorPresupuesto
from tests.presupuesto.factories import cdp_expedido, cdp_solicitado, celda, rp_solicitado

pytestmark = pytest.mark.django_db(transaction=True)

HILOS = 8


def correr(operaciones) -> tuple[int, list[str]]:
    """Run the operations concurrently on PostgreSQL, sequentially elsewhere."""
    exitos = 0
    errores: list[str] = []
    candado = threading.Lock()

    def una(operacion, barrera=None):
        nonlocal exitos
        try:
            if barrera is not None:
                barrera.wait(timeout=30)
            operacion()
            with candado:
                exitos += 1
        except ErrorPresupuesto as exc:
            with candado:
                errores.append(exc.codigo)
        finally:
            if barrera is not None:
                connection.close()

    if connection.vendor != "postgresql":
        for operacion in operaciones:
            una(operacion)
        return exitos, errores
    barrera = threading.Barrier(len(operaciones))
    hilos = [threading.Thread(target=una, args=(op, barrera)) for op in operaciones]
    for hilo in hilos:
        hilo.start()
    for hilo in hilos:
        hilo.join(timeout=60)
    close_old_connections()
    return exitos, errores


def test_concurrent_rps_never_overdraw_their_cdp():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    pendientes = [rp_solicitado(cdp, "150") for _ in range(HILOS)]

    exitos, errores = correr([lambda rp=rp: services.expedir_rp(rp=rp) for rp in pendientes])

    cdp = Cdp.objects.get(pk=cdp.pk)
    assert exitos == 6
    assert errores == ["saldo_insuficiente"] * (HILOS - 6)
    assert (cdp.comprometido, cdp.saldo) == (Decimal("900.00"), Decimal("100.00"))
    assert cdp.rps.filter(estado="expedido").count() == 6
    assert services.recalcular_saldos(cdp) == {}


def test_concurrent_rp_additions_never_overdraw_their_cdp():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rps = [services.expedir_rp(rp=rp_solicitado(cdp, "100")) for _ in range(4)]

    def adicion(rp):
        return services.registrar_movimiento_rp(rp=rp, tipo="adicion", valor="300", descripcion="+")

    exitos, errores = correr([lambda rp=rps[i % 4]: adicion(rp) for i in range(HILOS)])

    cdp = Cdp.objects.get(pk=cdp.pk)
    assert exitos == 2
    assert errores == ["saldo_insuficiente"] * (HILOS - 2)
    assert (cdp.comprometido, cdp.saldo, cdp.estado) == (
        Decimal("1000.00"),
        Decimal("0.00"),
        "agotado",
    )
    assert services.recalcular_saldos(cdp) == {}


def test_concurrent_cdps_never_exceed_their_assignment():
    proyecto, area = celda("1000")
    pendientes = [cdp_solicitado(proyecto, area, "300") for _ in range(HILOS)]

    exitos, errores = correr([lambda c=c: services.expedir_cdp(cdp=c) for c in pendientes])

    assert exitos == 3
    assert errores == ["saldo_insuficiente"] * (HILOS - 3)
    certificados = Cdp.objects.certificados().filter(proyecto=proyecto, area=area)
    assert sum(c.valor_actual for c in certificados) == Decimal("900.00")
