"""Calls refused before a tool runs (401, 403, 429) are counted per minute, who and code (issue 23).

Counted in the cache, one row per (minute, who, status, code) in the database, its count written
when a later minute's first refusal, the admin list, uso_asistente or `manage.py mantenimiento`
flushes the cache: an attack never becomes one database write per request.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from apps.mcp import rechazos
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from tests.caches import CACHE_MUERTA
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import ajustar, rpc

pytestmark = pytest.mark.django_db

ATACANTE = "203.0.113.66"
OTRA = "198.51.100.23"
MALO = "sgimcp_" + "A" * 40


class Reloj:
    """The minute refusals are counted in, moved by the test."""

    def __init__(self) -> None:
        self.minuto = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=30)

    def avanzar(self, minutos: int = 1) -> None:
        self.minuto += timedelta(minutes=minutos)


@pytest.fixture
def reloj(monkeypatch) -> Reloj:
    r = Reloj()
    monkeypatch.setattr(rechazos, "minuto_actual", lambda: r.minuto)
    # What this process saw while the cache was down belongs to this test only.
    monkeypatch.setattr(rechazos, "PROCESO", rechazos.Proceso())
    return r


def _ping(client, **cabeceras):
    return rpc(client, "ping", **cabeceras)


def _filas() -> set[tuple]:
    return {
        (f.quien, f.direccion, f.usuario_id, f.clave_id, f.estado, f.codigo, f.veces)
        for f in RechazoAsistente.objects.all()
    }


@contextmanager
def _sentencias() -> Iterator[list[str]]:
    """Every SQL statement run meanwhile, over any number of requests (CaptureQueriesContext
    loses those before the last request: Django empties its log when a request starts)."""
    vistas: list[str] = []

    def anotar(execute, sql, params, many, context):
        vistas.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(anotar):
        yield vistas


def _escrituras(sentencias: list[str], tabla: str = "") -> list[str]:
    return [
        sql
        for sql in sentencias
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")) and tabla in sql
    ]


def test_refused_requests_leave_one_row_per_minute_address_and_code_with_exact_totals(
    client, reloj
):
    ajustar(integracion_por_minuto=10)
    estados = [_ping(client, REMOTE_ADDR=ATACANTE).status for _ in range(15)]
    # Refused credentials count per address: the 11th is over the limit.
    assert estados == [401] * 10 + [429] * 5
    for _ in range(3):
        assert _ping(client, REMOTE_ADDR=OTRA, **{"X-MCP-User-Token": MALO}).status == 401
    reloj.avanzar()
    assert _ping(client, REMOTE_ADDR=OTRA).status == 401  # a later minute's first refusal
    filas = RechazoAsistente.objects.filter(minuto=reloj.minuto - timedelta(minutes=1))
    assert {(f.direccion, f.estado, f.codigo, f.veces) for f in filas} == {
        (ATACANTE, 401, "NO_AUTENTICADO", 10),
        (ATACANTE, 429, "RATE_LIMIT", 5),
        (OTRA, 401, "TOKEN_MCP_INVALIDO", 3),
    }
    assert all(f.usuario_id is None and f.clave_id is None for f in filas)
    assert RechazoAsistente.objects.count() == 4  # and the new minute's one
    assert RegistroAuditoria.objects.count() == 0  # no tool ran: no audit row


def test_an_attack_writes_one_row_and_then_only_counts_in_the_cache(client, reloj):
    assert _ping(client, REMOTE_ADDR=ATACANTE).status == 401
    with _sentencias() as capturadas:
        for _ in range(40):
            assert _ping(client, REMOTE_ADDR=ATACANTE).status == 401
    assert _escrituras(capturadas) == []
    assert RechazoAsistente.objects.count() == 1
    rechazos.volcar()
    assert RechazoAsistente.objects.get().veces == 41


def test_refusals_of_a_known_person_or_key_count_under_them_not_their_address(client, reloj):
    ajustar(usuario_por_minuto=2, integracion_por_minuto=3)
    clave, secreto_clave = nueva_clave("Integración de pruebas")
    sin_acceso = UserFactory(username="sin_acceso_r")
    _, secreto_sin = nuevo_token(sin_acceso)
    con_acceso = UserFactory(username="con_acceso_r", permisos=["mcp.asistente.usar"])
    _, secreto_con = nuevo_token(con_acceso)
    for ip in (ATACANTE, OTRA):  # from two addresses: still one row per person and code
        for _ in range(2):
            r = _ping(client, REMOTE_ADDR=ip, **{"X-MCP-User-Token": secreto_sin})
            assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")
    estados = [
        _ping(client, REMOTE_ADDR=ip, **{"X-MCP-User-Token": secreto_con}).status
        for ip in (ATACANTE, OTRA, ATACANTE)
    ]
    assert estados == [200, 200, 429]
    estados = [
        _ping(client, REMOTE_ADDR=OTRA, **{"X-MCP-Api-Key": secreto_clave}).status for _ in range(5)
    ]
    assert estados == [200, 200, 200, 429, 429]
    rechazos.volcar()
    assert _filas() == {
        (f"u{sin_acceso.pk}", "", sin_acceso.pk, None, 403, "SIN_PERMISO", 4),
        (f"u{con_acceso.pk}", "", con_acceso.pk, None, 429, "RATE_LIMIT", 1),
        (f"k{clave.pk}", "", None, clave.pk, 429, "RATE_LIMIT", 2),
    }


def test_an_origin_refused_counts_per_address(client, reloj):
    r = _ping(client, REMOTE_ADDR=ATACANTE, Origin="https://malicioso.example")
    assert (r.status, r.cuerpo["error"]["code"]) == (403, "SIN_PERMISO")
    rechazos.volcar()
    assert _filas() == {(f"ip {ATACANTE}", ATACANTE, None, None, 403, "SIN_PERMISO", 1)}


def test_an_ipv6_host_counts_as_its_64_network_as_the_limits_do(client, reloj):
    for sufijo in range(1, 6):
        assert _ping(client, REMOTE_ADDR=f"2001:db8:1:2::{sufijo:x}").status == 401
    rechazos.volcar()
    assert {(f.direccion, f.veces) for f in RechazoAsistente.objects.all()} == {
        ("2001:db8:1:2::/64", 5)
    }


def test_accepted_calls_and_other_errors_are_not_counted(client, reloj, como_completo):
    assert _ping(client, **como_completo).status == 200
    assert _ping(client, Accept="text/html").status == 406
    assert _ping(client, **{"MCP-Protocol-Version": "1999-01-01"}).status == 400
    rechazos.volcar()
    assert RechazoAsistente.objects.count() == 0


def test_a_minute_is_closed_once_it_is_over_and_its_count_stays(client, reloj):
    for _ in range(3):
        _ping(client, REMOTE_ADDR=ATACANTE)
    fila = RechazoAsistente.objects.get()
    assert (fila.veces, fila.pendiente) == (1, True)  # the count lives in the cache meanwhile
    reloj.avanzar(2)
    _ping(client, REMOTE_ADDR=OTRA)
    fila.refresh_from_db()
    assert (fila.veces, fila.pendiente) == (3, False)
    # Closed: a second flush neither reads nor writes it.
    with _sentencias() as capturadas:
        rechazos.volcar()
    assert _escrituras(capturadas) == []


def test_maintenance_writes_the_pending_counts(client, reloj):
    for _ in range(4):
        _ping(client, REMOTE_ADDR=ATACANTE)
    reloj.avanzar(5)
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    fila = RechazoAsistente.objects.get()
    assert (fila.veces, fila.pendiente) == (4, False)
    assert "rechazos del asistente: 1 fila(s) cerrada(s)" in salida.getvalue()


def test_maintenance_deletes_counts_past_the_audit_retention(client, reloj, settings):
    settings.HUB_RETENCION_AUDITORIA_DIAS = 30
    for dias in (31, 29):
        RechazoAsistente.objects.create(
            minuto=reloj.minuto - timedelta(days=dias),
            quien=f"ip 192.0.2.{dias}",
            direccion=f"192.0.2.{dias}",
            estado=401,
            codigo="NO_AUTENTICADO",
            veces=dias,
            pendiente=False,
        )
    salida = io.StringIO()
    call_command("mantenimiento", stdout=salida)
    assert list(RechazoAsistente.objects.values_list("veces", flat=True)) == [29]
    assert "rechazos del asistente (más de 30 días): 1 borradas" in salida.getvalue()


def test_a_lost_cache_loses_at_most_that_minutes_counts_and_never_fails(client, reloj):
    for _ in range(5):
        _ping(client, REMOTE_ADDR=ATACANTE)
    cache.delete(rechazos.llave_cache(RechazoAsistente.objects.get()))  # evicted, or a restart
    for _ in range(3):
        assert _ping(client, REMOTE_ADDR=ATACANTE).status == 401
    rechazos.volcar()
    assert RechazoAsistente.objects.get().veces == 3
    assert RechazoAsistente.objects.count() == 1


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_the_endpoint_still_refuses_and_the_refusal_is_seen(client, reloj):
    with _sentencias() as capturadas:
        for _ in range(6):
            r = _ping(client, REMOTE_ADDR=ATACANTE)
            assert (r.status, r.cuerpo["error"]["code"]) == (401, "NO_AUTENTICADO")
    sin_acceso = UserFactory(username="sin_acceso_c")
    _, secreto = nuevo_token(sin_acceso)
    assert _ping(client, **{"X-MCP-User-Token": secreto}).status == 403
    # Seen once per process and minute (the count itself needs the cache): never a write each.
    assert len(_escrituras(capturadas, RechazoAsistente._meta.db_table)) == 1
    assert {(f.quien, f.codigo, f.veces) for f in RechazoAsistente.objects.all()} == {
        (f"ip {ATACANTE}", "NO_AUTENTICADO", 1),
        (f"u{sin_acceso.pk}", "SIN_PERMISO", 1),
    }
    rechazos.volcar()  # cannot read the cache: changes nothing, raises nothing
    assert RechazoAsistente.objects.filter(pendiente=True).count() == 2
