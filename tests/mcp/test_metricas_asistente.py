"""The assistant's metrics (issue 23, item 9): tool calls per tool and result, refusals of its
limits, audit rows that could not be written; an unknown tool name is never a label."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from prometheus_client import REGISTRY

from apps.mcp.models import RegistroAuditoria
from tests.mcp_cliente import ajustar, llamar, rpc

pytestmark = pytest.mark.django_db


def valor(nombre: str, **etiquetas: str) -> float:
    return REGISTRY.get_sample_value(nombre, etiquetas) or 0.0


def llamadas(herramienta: str, resultado: str) -> float:
    return valor("hub_asistente_llamadas_total", herramienta=herramienta, resultado=resultado)


def test_an_ok_call_counts_ok_for_its_tool_and_is_timed(client, como_completo, herramientas_prueba):
    antes = llamadas("prueba_eco", "ok")
    veces = valor("hub_asistente_llamada_segundos_count", herramienta="prueba_eco")
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.resultado["isError"] is False
    assert llamadas("prueba_eco", "ok") == antes + 1
    assert valor("hub_asistente_llamada_segundos_count", herramienta="prueba_eco") == veces + 1


@pytest.mark.parametrize(
    ("nombre", "argumentos", "codigo"),
    [
        ("prueba_eco", {"texto": "x"}, "DATOS_INVALIDOS"),
        ("prueba_falla", {}, "ERROR_INTERNO"),
    ],
)
def test_a_call_with_an_error_counts_its_code(
    client, como_completo, herramientas_prueba, nombre, argumentos, codigo
):
    antes, ok = llamadas(nombre, codigo), llamadas(nombre, "ok")
    r = llamar(client, nombre, argumentos, **como_completo)
    assert r.estructura["codigo"] == codigo
    assert llamadas(nombre, codigo) == antes + 1
    assert llamadas(nombre, "ok") == ok


def test_an_unknown_tool_name_is_counted_without_its_name(
    client, como_completo, herramientas_prueba
):
    antes = llamadas("desconocida", "PARAMETROS_INVALIDOS")
    for i in range(3):
        r = llamar(client, f"inventada_{i}", {}, **como_completo)
        assert r.cuerpo["error"]["code"] == -32602
    assert llamadas("desconocida", "PARAMETROS_INVALIDOS") == antes + 3
    nombres = {
        m.labels["herramienta"]
        for familia in REGISTRY.collect()
        if familia.name.startswith("hub_asistente_llamada")
        for m in familia.samples
    }
    assert not any(n.startswith("inventada_") for n in nombres)


def test_a_429_of_the_persons_limit_counts_a_refusal_of_that_limit(client, como_completo):
    ajustar(usuario_por_minuto=1)
    antes = valor("hub_limite_rechazos_total", limite="mcp-usuario")
    assert rpc(client, "ping", **como_completo).status == 200
    assert valor("hub_limite_rechazos_total", limite="mcp-usuario") == antes
    assert rpc(client, "ping", **como_completo).status == 429
    assert valor("hub_limite_rechazos_total", limite="mcp-usuario") == antes + 1


def test_an_audit_row_that_cannot_be_written_is_counted_and_the_call_is_not(
    client, como_completo, herramientas_prueba, monkeypatch
):
    def falla(**kwargs):
        raise DatabaseError("disco lleno")

    monkeypatch.setattr(RegistroAuditoria.objects, "create", falla)
    fallos, ok = valor("hub_auditoria_fallos_total"), llamadas("prueba_eco", "ok")
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.status == 503
    assert valor("hub_auditoria_fallos_total") == fallos + 1
    assert llamadas("prueba_eco", "ok") == ok  # not answered, so not counted as a call
