"""The assistant's limits: per user, per integration, per IP for refused credentials, writes and
failed verifications; headers on every answer after identification."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tests.caches import CACHE_MUERTA
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import ajustar, llamar, rpc

pytestmark = pytest.mark.django_db


def _429(r) -> None:
    assert r.status == 429
    assert r.cuerpo["error"]["code"] == "RATE_LIMIT"
    assert 1 <= int(r.http["Retry-After"]) <= 60
    assert r.http["X-RateLimit-Remaining"] == "0"


def test_an_identified_person_has_60_per_minute_with_headers(client, como_completo):
    r = rpc(client, "ping", **como_completo)
    assert r.http["X-RateLimit-Limit"] == "60"
    assert r.http["X-RateLimit-Remaining"] == "59"
    assert rpc(client, "ping", **como_completo).http["X-RateLimit-Remaining"] == "58"


def test_an_integration_without_person_has_120_per_minute(client, clave):
    r = rpc(client, "ping", **clave)
    assert r.http["X-RateLimit-Limit"] == "120"
    assert r.http["X-RateLimit-Remaining"] == "119"


def test_protocol_and_tool_errors_carry_the_headers_too(client, como_completo, herramientas_prueba):
    for r in (
        rpc(client, "no/existe", **como_completo),
        llamar(client, "prueba_eco", {"texto": "x"}, **como_completo),
    ):
        assert r.status == 200
        assert r.http["X-RateLimit-Limit"] == "60"


def test_over_the_persons_limit_is_429_rate_limit(client, como_completo):
    ajustar(usuario_por_minuto=2)
    rpc(client, "ping", **como_completo)
    rpc(client, "ping", **como_completo)
    r = rpc(client, "ping", **como_completo)
    _429(r)
    assert r.http["X-RateLimit-Limit"] == "2"


def test_the_persons_limit_follows_the_person_across_tokens_and_keys(client, completo):
    ajustar(usuario_por_minuto=2)
    for _ in range(2):
        _, token = nuevo_token(completo)
        _, clave = nueva_clave()
        rpc(client, "ping", **{"X-MCP-Api-Key": clave, "X-MCP-User-Token": token})
    _, token = nuevo_token(completo)
    _429(rpc(client, "ping", **{"X-MCP-User-Token": token}))


def test_the_integrations_limit_counts_per_key(client, clave):
    ajustar(integracion_por_minuto=1)
    rpc(client, "ping", **clave)
    _429(rpc(client, "ping", **clave))
    _, otra = nueva_clave()
    assert rpc(client, "ping", **{"X-MCP-Api-Key": otra}).status == 200


def test_a_persons_calls_do_not_spend_the_integrations_budget(client, clave, token_completo):
    ajustar(integracion_por_minuto=1)
    for _ in range(3):
        assert rpc(client, "ping", **clave, **{"X-MCP-User-Token": token_completo}).status == 200
    assert rpc(client, "ping", **clave).status == 200


def test_refused_credentials_count_per_ip_and_end_in_429(client):
    ajustar(integracion_por_minuto=3)
    for _ in range(3):
        r = rpc(client, "ping", **{"X-MCP-Api-Key": "sgiapi_adivinanza"}, REMOTE_ADDR="10.4.4.4")
        assert r.status == 401
        assert "X-RateLimit-Remaining" in r.http
    _429(rpc(client, "ping", **{"X-MCP-Api-Key": "sgiapi_otra"}, REMOTE_ADDR="10.4.4.4"))
    assert rpc(client, "ping", REMOTE_ADDR="10.5.5.5").status == 401


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_reads_are_served_without_limit_headers(
    client, como_completo, herramientas_prueba, caplog
):
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.estructura == {"texto": "hola", "veces": 1}
    assert "X-RateLimit-Limit" not in r.http
    assert "atendido sin límite" in caplog.text


# --- failed verifications (a tool of class verificada without a person) -------------------------


def _verificar(client, cabeceras, clave_dato: str, ip: str = "10.6.6.6"):
    return llamar(client, "prueba_verificada", {"clave": clave_dato}, REMOTE_ADDR=ip, **cabeceras)


def test_failed_verifications_block_the_integration_and_ip_after_the_limit(
    client, clave, herramientas_prueba
):
    ajustar(verificaciones_fallidas_por_hora=3)
    for _ in range(3):
        assert _verificar(client, clave, "mala").estructura["codigo"] == "NO_ENCONTRADO"
    r = _verificar(client, clave, "mala")
    assert r.estructura["codigo"] == "DEMASIADOS_INTENTOS"
    assert r.estructura["reintentar_en"] >= 1
    # Once blocked, even the right answer is refused.
    assert _verificar(client, clave, "buena").estructura["codigo"] == "DEMASIADOS_INTENTOS"


def test_successful_verifications_do_not_count(client, clave, herramientas_prueba):
    ajustar(verificaciones_fallidas_por_hora=2)
    for _ in range(5):
        assert _verificar(client, clave, "buena").estructura == {"encontrado": True}
    assert _verificar(client, clave, "mala").estructura["codigo"] == "NO_ENCONTRADO"


def test_the_block_is_per_integration_and_ip(client, clave, herramientas_prueba):
    ajustar(verificaciones_fallidas_por_hora=1)
    _verificar(client, clave, "mala")
    assert _verificar(client, clave, "buena").estructura["codigo"] == "DEMASIADOS_INTENTOS"
    assert _verificar(client, clave, "buena", ip="10.7.7.7").estructura == {"encontrado": True}
    _, otra = nueva_clave()
    otra_clave = {"X-MCP-Api-Key": otra}
    assert _verificar(client, otra_clave, "buena").estructura == {"encontrado": True}


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_verifications_fail_closed(client, clave, herramientas_prueba):
    r = _verificar(client, clave, "buena")
    assert r.status == 200
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "SERVICIO_NO_DISPONIBLE"
