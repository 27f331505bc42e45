"""X-Forwarded-For spoofing: a client cannot escape a per-IP limit by inventing hops. The header
is read only when the request comes from a trusted proxy's address (HUB_PROXIES_CONFIABLES),
right to left, skipping trusted addresses; from anyone else it is ignored."""

from __future__ import annotations

import json

import pytest
from django.test import RequestFactory

from apps.mcp.models import RegistroAuditoria
from hub.http.ip import ip_cliente, redes_confiables
from hub.models import Limites
from tests.mcp.factories import nueva_clave
from tests.mcp_cliente import URL, ajustar

pytestmark = pytest.mark.django_db

LISTA = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
LLAMADA = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "buscar_documento", "arguments": {"texto": "manual"}},
    }
)
PROXY = "10.0.0.1"


def confiar(settings, texto: str) -> None:
    """Trust these proxies, written as an operator writes HUB_PROXIES_CONFIABLES."""
    settings.HUB_PROXIES_CONFIABLES = redes_confiables(texto)


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


@pytest.fixture
def mala():
    return {"X-MCP-Api-Key": "sgiapi_no-es-una-clave"}


def _estados(client, cabeceras, pares) -> list[int]:
    return [_post(client, cabeceras, remoto=r, xff=x).status_code for r, x in pares]


# --- no trusted proxy --------------------------------------------------------------------------


def test_an_integration_key_gets_429_whatever_x_forwarded_for_says(
    client, settings, clave, limite_tres
):
    confiar(settings, "")
    pares = [("198.51.100.7", f"203.0.113.{i}") for i in range(1, 6)]
    estados = _estados(client, clave, pares)
    assert estados == [200, 200, 200, 429, 429]
    r = _post(client, clave, remoto="198.51.100.7", xff="192.0.2.200")
    assert r.json()["error"]["code"] == "RATE_LIMIT"
    assert int(r["Retry-After"]) >= 1


def test_refused_credentials_are_counted_per_real_ip_even_with_invented_hops(
    client, settings, limite_tres, mala
):
    confiar(settings, "")
    pares = [("198.51.100.7", f"203.0.113.{i}, 192.0.2.{i}") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]
    # Another real address is a different bucket: the count above was per IP, not global.
    assert _post(client, mala, remoto="198.51.100.8").status_code == 401


def test_the_global_per_ip_limit_ignores_x_forwarded_for(client, settings, clave):
    confiar(settings, "")
    limites = Limites.cargar()
    limites.global_por_minuto = 3
    limites.save()
    pares = [("198.51.100.7", f"203.0.113.{i}") for i in range(1, 6)]
    assert _estados(client, clave, pares) == [200, 200, 200, 429, 429]


def test_without_trusted_proxies_the_audit_keeps_the_socket_address(client, settings, clave):
    confiar(settings, "")
    r = _post(client, clave, remoto="198.51.100.7", xff="1.2.3.4", cuerpo=LLAMADA)
    assert r.status_code == 200
    assert list(RegistroAuditoria.objects.values_list("ip", flat=True)) == ["198.51.100.7"]


# --- a trusted proxy, by address ---------------------------------------------------------------


def test_a_client_that_is_not_a_trusted_proxy_cannot_choose_its_ip(
    client, settings, limite_tres, mala
):
    # The proxy is trusted, but this request reached gunicorn directly (0.0.0.0:8000).
    confiar(settings, PROXY)
    pares = [("198.51.100.7", f"203.0.113.{i}") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]


def test_the_audit_ip_of_a_direct_client_is_its_socket_address(client, settings, clave):
    confiar(settings, PROXY)
    assert _post(client, clave, remoto="198.51.100.7", xff="1.2.3.4", cuerpo=LLAMADA).status_code
    assert list(RegistroAuditoria.objects.values_list("ip", flat=True)) == ["198.51.100.7"]


def test_behind_a_trusted_proxy_prepended_fake_hops_do_not_change_the_counted_ip(
    client, settings, limite_tres, mala
):
    confiar(settings, PROXY)
    # Our proxy appends the real client last; everything before it was written by the client.
    pares = [(PROXY, f"203.0.113.{i}, 192.0.2.{i}, 198.51.100.7") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]
    # Behind the same proxy another real client has its own bucket (the proxy is not counted).
    assert _post(client, mala, remoto=PROXY, xff="203.0.113.1, 198.51.100.8").status_code == 401
    assert _post(client, mala, remoto=PROXY, xff="198.51.100.8").status_code == 401


def test_behind_a_trusted_proxy_the_audit_records_the_hop_the_proxy_wrote(client, settings, clave):
    confiar(settings, PROXY)
    for xff in ["198.51.100.7", "1.1.1.1, 198.51.100.7", "10.9.9.9, 8.8.8.8, 198.51.100.7"]:
        assert _post(client, clave, remoto=PROXY, xff=xff, cuerpo=LLAMADA).status_code == 200
    assert set(RegistroAuditoria.objects.values_list("ip", flat=True)) == {"198.51.100.7"}


def test_behind_a_trusted_proxy_a_garbage_last_hop_falls_back_to_the_proxy_address(
    client, settings, limite_tres, mala
):
    confiar(settings, PROXY)
    pares = [(PROXY, f"198.51.100.{i}, no-es-ip-{i}") for i in range(1, 6)]
    assert _estados(client, mala, pares) == [401, 401, 401, 429, 429]


# --- how the client address is found -----------------------------------------------------------


@pytest.mark.parametrize(
    ("confiables", "remoto", "xff", "esperada"),
    [
        # Nobody trusted: the socket address, whatever the header says.
        ("", "10.0.0.1", "1.2.3.4", "10.0.0.1"),
        # Trusted proxies, but the request did not come from one of them.
        ("127.0.0.1", "127.0.0.2", "1.2.3.4", "127.0.0.2"),
        ("10.0.0.0/8", "192.168.1.5", "1.2.3.4", "192.168.1.5"),
        # From a trusted proxy: the right-most hop that is not a trusted address.
        ("127.0.0.1", "127.0.0.1", "1.2.3.4", "1.2.3.4"),
        ("127.0.0.1", "127.0.0.1", "6.6.6.6, 1.2.3.4", "1.2.3.4"),
        ("127.0.0.1,10.0.0.0/8", "127.0.0.1", "6.6.6.6, 1.2.3.4, 10.2.3.4", "1.2.3.4"),
        ("127.0.0.1,10.0.0.0/8", "127.0.0.1", "1.2.3.4 ,10.2.3.4,  10.9.9.9", "1.2.3.4"),
        # Every hop is a trusted address: the client itself is inside a trusted network.
        ("127.0.0.1,10.0.0.0/8", "127.0.0.1", "10.5.5.5, 10.2.3.4", "10.5.5.5"),
        # A hop that is not an address stops the walk at the last address read.
        ("127.0.0.1", "127.0.0.1", "no-es-ip", "127.0.0.1"),
        ("127.0.0.1,10.0.0.0/8", "127.0.0.1", "1.2.3.4, basura, 10.2.3.4", "10.2.3.4"),
        ("127.0.0.1", "127.0.0.1", "", "127.0.0.1"),
        # Ports and brackets as some load balancers write them.
        ("127.0.0.1", "127.0.0.1", "203.0.113.7:51234", "203.0.113.7"),
        ("127.0.0.1", "127.0.0.1", "[2001:db8::1]:443", "2001:db8::1"),
        ("127.0.0.1", "127.0.0.1", "2001:db8::1", "2001:db8::1"),
        ("::1,fd00::/8", "::1", "2001:db8::7, fd00::2", "2001:db8::7"),
        # A unix socket has no peer address: only this host reaches it, as the proxy.
        ("127.0.0.1", "", "203.0.113.7", "203.0.113.7"),
        ("", "", "203.0.113.7", "0.0.0.0"),
        # IPv4-mapped IPv6 is the IPv4 address: a dual-stack socket ([::]:8000) reports IPv4
        # clients this way, the trusted proxy included; a mapped hop is the IPv4 client, and a
        # mapped trusted address is skipped.
        ("", "::ffff:198.51.100.7", None, "198.51.100.7"),
        ("", "::FFFF:C633:6407", None, "198.51.100.7"),
        ("127.0.0.1", "::ffff:127.0.0.1", "203.0.113.9", "203.0.113.9"),
        ("127.0.0.1", "127.0.0.1", "::ffff:203.0.113.9", "203.0.113.9"),
        ("127.0.0.1,10.0.0.0/8", "127.0.0.1", "203.0.113.9, ::ffff:10.1.1.1", "203.0.113.9"),
    ],
)
def test_client_ip_is_the_rightmost_hop_that_is_not_a_trusted_proxy(
    settings, confiables, remoto, xff, esperada
):
    confiar(settings, confiables)
    extra = {"REMOTE_ADDR": remoto}
    if xff is not None:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    assert ip_cliente(RequestFactory().get("/", **extra)) == esperada


def test_a_mapped_and_a_plain_ipv4_client_share_one_limit(client, settings, limite_tres, mala):
    confiar(settings, "")
    pares = [("198.51.100.7", None), ("::ffff:198.51.100.7", None), ("198.51.100.7", None)]
    assert _estados(client, mala, pares) == [401, 401, 401]
    assert _post(client, mala, remoto="::ffff:198.51.100.7").status_code == 429


# --- the setting -------------------------------------------------------------------------------


def test_the_setting_reads_addresses_and_networks():
    redes = redes_confiables(" 127.0.0.1, 10.0.0.0/8 ,::1,, fd00::/8 ")
    assert [str(r) for r in redes] == ["127.0.0.1/32", "10.0.0.0/8", "::1/128", "fd00::/8"]
    assert redes_confiables("") == ()


@pytest.mark.parametrize(
    ("texto", "pista"),
    [
        ("1", "direcciones"),  # the old meaning (how many proxies) must not pass silently
        ("0", "direcciones"),
        ("dos", "'dos'"),
        ("10.0.0.1/8", "10.0.0.0/8"),  # host bits set: say which network was meant
        ("127.0.0.1,*", "'*'"),
        ("0.0.0.0/0", "cualquier cliente"),
        ("::/0", "cualquier cliente"),
        ("127.0.0.1;10.0.0.1", "'127.0.0.1;10.0.0.1'"),
    ],
)
def test_a_bad_setting_is_refused_with_a_message_that_names_the_problem(texto, pista):
    with pytest.raises(ValueError) as error:
        redes_confiables(texto)
    assert pista in str(error.value)
