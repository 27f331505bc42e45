"""X-Forwarded-For spoofing: a client cannot escape a per-IP limit by inventing hops, with no
trusted proxy (the header is ignored) nor with one (only the hop our proxy wrote counts)."""

from __future__ import annotations

import json

import pytest

from apps.mcp.models import RegistroAuditoria
from hub.models import Limites
from tests.mcp.conftest import URL, ajustar
from tests.mcp.factories import nueva_clave

pytestmark = pytest.mark.django_db

LISTA = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
PROXY = "10.0.0.1"


def _post(client, cabeceras: dict, *, remoto: str, xff: str | None = None, cuerpo: str = LISTA):
    extra = {"REMOTE_ADDR": remoto}
    if xff is not None:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    return client.post(
        URL, data=cuerpo, content_type="application/json", headers=cabeceras, **extra
    )


@pytest.fixture
def clave():
    return {"X-MCP-Api-Key": nueva_clave()[1]}


@pytest.fixture
def limite_tres():
    return ajustar(integracion_por_minuto=3)


def _estados(client, cabeceras, pares) -> list[int]:
    return [_post(client, cabeceras, remoto=r, xff=x).status_code for r, x in pares]


# --- no trusted proxy --------------------------------------------------------------------------


def test_an_integration_key_gets_429_whatever_x_forwarded_for_says(
    client, settings, clave, limite_tres
):
    settings.HUB_PROXIES_CONFIABLES = 0
    pares = [("198.51.100.7", f"203.0.113.{i}") for i in range(1, 6)]
    estados = _estados(client, clave, pares)
    assert estados == [200, 200, 200, 429, 429]
    r = _post(client, clave, remoto="198.51.100.7", xff="192.0.2.200")
    assert r.json()["error"]["code"] == "RATE_LIMIT"
    assert int(r["Retry-After"]) >= 1


def test_refused_credentials_are_counted_per_real_ip_even_with_invented_hops(
    client, settings, limite_tres
):
    settings.HUB_PROXIES_CONFIABLES = 0
    mala = {"X-MCP-Api-Key": "sgiapi_no-es-una-clave"}
    pares = [("198.51.100.7", f"203.0.113.{i}, 192.0.2.{i}") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]
    # Another real address is a different bucket: the count above was per IP, not global.
    assert _post(client, mala, remoto="198.51.100.8").status_code == 401


def test_the_global_per_ip_limit_ignores_x_forwarded_for(client, settings, clave):
    settings.HUB_PROXIES_CONFIABLES = 0
    limites = Limites.cargar()
    limites.global_por_minuto = 3
    limites.save()
    pares = [("198.51.100.7", f"203.0.113.{i}") for i in range(1, 6)]
    assert _estados(client, clave, pares) == [200, 200, 200, 429, 429]


def test_without_trusted_proxies_the_audit_keeps_the_socket_address(client, settings, clave):
    settings.HUB_PROXIES_CONFIABLES = 0
    cuerpo = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "buscar_documento", "arguments": {"texto": "manual"}},
        }
    )
    r = _post(client, clave, remoto="198.51.100.7", xff="1.2.3.4", cuerpo=cuerpo)
    assert r.status_code == 200
    assert list(RegistroAuditoria.objects.values_list("ip", flat=True)) == ["198.51.100.7"]


# --- one trusted proxy -------------------------------------------------------------------------


def test_with_one_trusted_proxy_prepended_fake_hops_do_not_change_the_counted_ip(
    client, settings, limite_tres
):
    settings.HUB_PROXIES_CONFIABLES = 1
    mala = {"X-MCP-Api-Key": "sgiapi_no-es-una-clave"}
    # Our proxy appends the real client last; everything before it was written by the client.
    pares = [(PROXY, f"203.0.113.{i}, 192.0.2.{i}, 198.51.100.7") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]
    # Behind the same proxy another real client has its own bucket (the proxy is not counted).
    assert _post(client, mala, remoto=PROXY, xff="203.0.113.1, 198.51.100.8").status_code == 401
    assert _post(client, mala, remoto=PROXY, xff="198.51.100.8").status_code == 401


def test_with_one_trusted_proxy_the_audit_records_the_hop_the_proxy_wrote(client, settings, clave):
    settings.HUB_PROXIES_CONFIABLES = 1
    cuerpo = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "buscar_documento", "arguments": {"texto": "manual"}},
        }
    )
    for xff in ["198.51.100.7", "1.1.1.1, 198.51.100.7", "10.9.9.9, 8.8.8.8, 198.51.100.7"]:
        assert _post(client, clave, remoto=PROXY, xff=xff, cuerpo=cuerpo).status_code == 200
    assert set(RegistroAuditoria.objects.values_list("ip", flat=True)) == {"198.51.100.7"}


def test_with_one_trusted_proxy_a_garbage_last_hop_falls_back_to_the_proxy_address(
    client, settings, limite_tres
):
    settings.HUB_PROXIES_CONFIABLES = 1
    mala = {"X-MCP-Api-Key": "sgiapi_no-es-una-clave"}
    pares = [(PROXY, f"198.51.100.{i}, no-es-ip-{i}") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]
