"""Filing numbers: PREFIJO-AÑO-NNNNNN, one sequence per prefix and year, no gaps, no repeats."""

from __future__ import annotations

import re
import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.errores import DatosInvalidos
from apps.solicitudes.models import Consecutivo, Estado, Solicitud
from tests.factories import GroupFactory
from tests.solicitudes.factories import radicadora, radicar, tipo_con_etapas

pytestmark = pytest.mark.django_db


def _secuencia(numero: str) -> int:
    return int(numero.rsplit("-", 1)[1])


def test_number_has_prefix_local_year_and_six_digits():
    tipo = tipo_con_etapas(GroupFactory(), prefijo="SOL")
    solicitud = radicar(tipo)
    anio = timezone.localdate().year
    assert re.fullmatch(rf"SOL-{anio}-\d{{6}}", solicitud.numero_radicado)
    assert solicitud.numero_radicado == f"SOL-{anio}-000001"


def test_consecutive_filings_get_consecutive_numbers():
    tipo = tipo_con_etapas(GroupFactory())
    numeros = [radicar(tipo).numero_radicado for _ in range(5)]
    assert [_secuencia(n) for n in numeros] == [1, 2, 3, 4, 5]


def test_each_prefix_has_its_own_sequence_and_types_sharing_a_prefix_share_it():
    rol = GroupFactory()
    sol_a = tipo_con_etapas(rol, prefijo="SOL")
    sol_b = tipo_con_etapas(rol, prefijo="SOL")
    mesa = tipo_con_etapas(rol, prefijo="MDA")
    anio = timezone.localdate().year
    assert radicar(sol_a).numero_radicado == f"SOL-{anio}-000001"
    assert radicar(mesa).numero_radicado == f"MDA-{anio}-000001"
    assert radicar(sol_b).numero_radicado == f"SOL-{anio}-000002"
    assert radicar(mesa).numero_radicado == f"MDA-{anio}-000002"


def test_year_is_the_local_year_at_new_years_eve(monkeypatch):
    # 23:30 on 31 December in Bogotá is already 1 January in UTC.
    local = datetime(2026, 12, 31, 23, 30, tzinfo=ZoneInfo("America/Bogota"))
    monkeypatch.setattr(timezone, "now", lambda: local.astimezone(ZoneInfo("UTC")))
    tipo = tipo_con_etapas(GroupFactory())
    assert radicar(tipo).numero_radicado == "SOL-2026-000001"


def test_a_new_year_starts_again_at_one(monkeypatch):
    tipo = tipo_con_etapas(GroupFactory())
    Consecutivo.objects.create(prefijo="SOL", anio=2026, ultimo=41)
    monkeypatch.setattr(
        timezone, "now", lambda: datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("America/Bogota"))
    )
    assert radicar(tipo).numero_radicado == "SOL-2026-000042"
    monkeypatch.setattr(
        timezone, "now", lambda: datetime(2027, 1, 2, 12, tzinfo=ZoneInfo("America/Bogota"))
    )
    assert radicar(tipo).numero_radicado == "SOL-2027-000001"


def test_a_rolled_back_filing_gives_its_number_back():
    tipo = tipo_con_etapas(GroupFactory())
    primera = radicar(tipo)

    class Falla(Exception):
        pass

    with pytest.raises(Falla), transaction.atomic():
        radicar(tipo)
        raise Falla
    siguiente = radicar(tipo)
    assert _secuencia(siguiente.numero_radicado) == _secuencia(primera.numero_radicado) + 1
    assert Solicitud.objects.count() == 2


def test_invalid_filing_consumes_no_number():
    tipo = tipo_con_etapas(GroupFactory())
    with pytest.raises(DatosInvalidos):
        radicar(tipo, resumen="x")
    assert _secuencia(radicar(tipo).numero_radicado) == 1


def test_drafts_get_no_number_until_filed():
    tipo = tipo_con_etapas(GroupFactory())
    autora = radicadora()
    borrador = services.crear_borrador(tipo=tipo, solicitante=autora, resumen="Borrador de prueba")
    assert borrador.numero_radicado is None
    assert borrador.estado == Estado.BORRADOR
    otra = radicar(tipo)
    radicada = services.radicar_borrador(solicitud=borrador, actor=autora)
    assert _secuencia(otra.numero_radicado) == 1
    assert _secuencia(radicada.numero_radicado) == 2
    assert radicada.estado == Estado.RADICADO


def test_reserving_a_block_advances_the_counter_once():
    with transaction.atomic():
        primero = Consecutivo.reservar("SOL", 2025, 500)
        siguiente = Consecutivo.reservar("SOL", 2025, 1)
    assert (primero, siguiente) == (1, 501)
    assert Consecutivo.objects.get(prefijo="SOL", anio=2025).ultimo == 501


def _radicar_varias(tipo, solicitante, cantidad: int, salida: list[str], errores: list) -> None:
    try:
        for _ in range(cantidad):
            salida.append(radicar(tipo, solicitante=solicitante).numero_radicado)
    except Exception as exc:  # collected and asserted by the test
        errores.append(exc)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_concurrent_filings_get_every_number_once_without_gaps():
    """Eight workers file at once from a year with no counter row yet (creation races too).

    On PostgreSQL they are real threads on separate connections; SQLite's in-memory test
    database cannot be shared across threads, so there the same workers run one after another
    and the invariant checked is the same.
    """
    tipo = tipo_con_etapas(GroupFactory())
    solicitante = radicadora()
    hilos, por_hilo = 8, 5
    numeros: list[str] = []
    errores: list = []
    if connection.vendor == "postgresql":
        barrera = threading.Barrier(hilos)

        def trabajo():
            barrera.wait()
            _radicar_varias(tipo, solicitante, por_hilo, numeros, errores)

        trabajadores = [threading.Thread(target=trabajo) for _ in range(hilos)]
        for t in trabajadores:
            t.start()
        for t in trabajadores:
            t.join()
    else:
        for _ in range(hilos):
            _radicar_varias(tipo, solicitante, por_hilo, numeros, errores)
    assert errores == []
    total = hilos * por_hilo
    assert sorted(_secuencia(n) for n in numeros) == list(range(1, total + 1))
    assert len(set(numeros)) == total
    assert Consecutivo.objects.get(prefijo="SOL").ultimo == total
    assert Solicitud.objects.count() == total
