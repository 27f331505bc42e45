"""Trusted proxies end to end, as deployed: gunicorn -c gunicorn.conf.py (which hands
HUB_PROXIES_CONFIABLES to gunicorn's forwarded_allow_ips) in front of the hub, with two workers.

A peer outside the list can set neither the client address the hub uses (`request.ip_cliente`,
written in its access line) nor the scheme (`request.scheme`: gunicorn's wsgi.url_scheme, or under
the production profile X-Forwarded-Proto when the hub believes it; seen through the assistant's
endpoint, which accepts an `Origin` only with the request's own scheme). A listed proxy sets both.
The lists: a trusted network that leaves out 127.0.0.1 (which gunicorn trusts by default), the
README's 127.0.0.1, none (not behind a proxy, the Dockerfile's default), and the README's production
block with that other network or none. Each server listens on a unix socket too, which is a trusted
proxy exactly when the list is not empty (docs/despliegue.md).
"""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.procesos import PRODUCCION_README, Gunicorn, base_migrada, gunicorn_conf

pytestmark = pytest.mark.procesos

PING = "/auth/api/v1/ping"
MCP = "/mcp/api/mcp"
OTRA_RED = "10.0.0.0/8,127.0.0.2"
# The production block, reachable at 127.0.0.1 over plain HTTP (the start-up check pings it so).
PRODUCCION = {
    **{k: v for k, v in PRODUCCION_README.items() if k != "REDIS_URL"},
    "ALLOWED_HOSTS": "hub.entidad.gov.co,127.0.0.1",
    "HUB_SSL_REDIRECT": "false",
}
# Each case: its variables, the peers it trusts and those it does not: loopback addresses, and
# UNIX, a connection to its unix socket (only this host reaches one: a proxy when the list is
# not empty, docs/despliegue.md).
UNIX = "unix"
LISTAS = {
    "otra_red": ({"HUB_PROXIES_CONFIABLES": OTRA_RED}, ["127.0.0.2", UNIX], ["127.0.0.1"]),
    "readme": ({"HUB_PROXIES_CONFIABLES": "127.0.0.1"}, ["127.0.0.1", UNIX], ["127.0.0.3"]),
    "sin_proxy": ({"HUB_PROXIES_CONFIABLES": ""}, [], ["127.0.0.1", UNIX]),
    "produccion": (
        {**PRODUCCION, "HUB_PROXIES_CONFIABLES": OTRA_RED},
        ["127.0.0.2", UNIX],
        ["127.0.0.1"],
    ),
    "produccion_sin_proxy": ({**PRODUCCION, "HUB_PROXIES_CONFIABLES": ""}, [], ["127.0.0.1", UNIX]),
}
CON_PROXY = [lista for lista, (_v, confiables, _a) in LISTAS.items() if confiables]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """One migrated database for every server of the module; the run's cache."""
    carpeta = tmp_path_factory.mktemp("proxies_conf")
    with base_migrada(carpeta) as env:
        yield env, carpeta


@pytest.fixture(scope="module")
def servidor(request, base):
    """gunicorn.conf.py with the case `request.param` on a port and a unix socket, JSON logs
    (the hub's access line, with the client's address); the server, the peers it trusts and the
    others."""
    env, carpeta = base
    variables, confiables, ajenos = LISTAS[request.param]
    with gunicorn_conf(
        env,
        carpeta,
        pids=False,
        socket_unix=carpeta / f"{request.param}.sock",
        WEB_CONCURRENCY="2",
        HUB_LOG_FORMATO="json",
        **variables,
    ) as gunicorn:
        yield gunicorn, confiables, ajenos


def _desde(gunicorn: Gunicorn, par: str) -> httpx.Client:
    """A client whose connections leave from this local address (127.0.0.0/8 is all loopback),
    or come through the server's unix socket."""
    if par == UNIX:
        transporte = httpx.HTTPTransport(uds=str(gunicorn.socket_unix))
    else:
        transporte = httpx.HTTPTransport(local_address=par)
    return httpx.Client(transport=transporte, timeout=10)


def _ip_registrada(gunicorn: Gunicorn, respuesta: httpx.Response) -> str:
    """The client address in the hub's access line of this answer (found by its request id)."""
    request_id = respuesta.headers["X-Request-ID"]
    for _intento in range(20):
        for linea in gunicorn.log.read_text().splitlines():
            if request_id in linea and linea.startswith("{"):
                objeto = json.loads(linea)
                if objeto.get("logger") == "hub.acceso" and objeto["request_id"] == request_id:
                    return objeto["ip"]
        time.sleep(0.1)
    raise AssertionError(f"no access line for {request_id}")


def _mcp_con_origen(
    cliente: httpx.Client, gunicorn: Gunicorn, esquema: str, proto: str | None
) -> httpx.Response:
    """A call without credentials from the page `esquema://<the host it calls>`, the scheme the
    proxy says in X-Forwarded-Proto (None: no header)."""
    cabeceras = {"Origin": f"{esquema}://127.0.0.1:{gunicorn.puerto}"}
    if proto is not None:
        cabeceras["X-Forwarded-Proto"] = proto
    mensaje = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    return cliente.post(gunicorn.base + MCP, json=mensaje, headers=cabeceras)


def _codigo(respuesta: httpx.Response) -> tuple[int, str]:
    return respuesta.status_code, respuesta.json()["error"]["code"]


# Parametrized by list only, so that each server starts once; the peers of a list in a loop.
@pytest.mark.parametrize("servidor", list(LISTAS), indirect=True)
def test_a_peer_that_is_not_a_trusted_proxy_cannot_set_the_client_address(servidor):
    gunicorn, _confiables, ajenos = servidor
    for par in ajenos:
        with _desde(gunicorn, par) as cliente:
            respuesta = cliente.get(
                gunicorn.base + PING, headers={"X-Forwarded-For": "203.0.113.9, 10.1.2.3"}
            )
        assert respuesta.status_code == 200, par
        # A unix socket has no peer address: no usable address, never one the client wrote.
        assert _ip_registrada(gunicorn, respuesta) == ("0.0.0.0" if par == UNIX else par)


@pytest.mark.parametrize("servidor", list(LISTAS), indirect=True)
def test_a_peer_that_is_not_a_trusted_proxy_cannot_claim_https(servidor):
    gunicorn, _confiables, ajenos = servidor
    for par in ajenos:
        with _desde(gunicorn, par) as cliente:
            # Plain HTTP is what it is: its own page's origin is accepted (then no credential)...
            http = _mcp_con_origen(cliente, gunicorn, "http", "https")
            # ...and an https page is another site, whatever X-Forwarded-Proto says.
            https = _mcp_con_origen(cliente, gunicorn, "https", "https")
        assert _codigo(http) == (401, "NO_AUTENTICADO"), par
        assert _codigo(https) == (403, "SIN_PERMISO"), par


@pytest.mark.parametrize("servidor", CON_PROXY, indirect=True)
def test_a_trusted_proxy_reports_the_client_address_it_saw(servidor):
    gunicorn, confiables, _ajenos = servidor
    for par in confiables:
        with _desde(gunicorn, par) as proxy:
            # The right-most hop that is not a trusted proxy, not what the client wrote at the left.
            respuesta = proxy.get(
                gunicorn.base + PING, headers={"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}
            )
        assert respuesta.status_code == 200, par
        assert _ip_registrada(gunicorn, respuesta) == "198.51.100.7", par


@pytest.mark.parametrize("servidor", CON_PROXY, indirect=True)
def test_a_trusted_proxy_reports_the_scheme_it_served(servidor):
    gunicorn, confiables, _ajenos = servidor
    for par in confiables:
        with _desde(gunicorn, par) as proxy:
            https = _mcp_con_origen(proxy, gunicorn, "https", "https")
            http_dicho = _mcp_con_origen(proxy, gunicorn, "https", "http")
            http = _mcp_con_origen(proxy, gunicorn, "http", "http")
        assert _codigo(https) == (401, "NO_AUTENTICADO"), par
        assert _codigo(http_dicho) == (403, "SIN_PERMISO"), par
        assert _codigo(http) == (401, "NO_AUTENTICADO"), par


@pytest.mark.parametrize("servidor", list(LISTAS), indirect=True)
def test_a_peer_that_is_not_a_trusted_proxy_cannot_set_the_script_prefix(servidor):
    gunicorn, _confiables, ajenos = servidor
    for par in ajenos:
        with _desde(gunicorn, par) as cliente:
            # gunicorn takes SCRIPT_NAME from a header only from a proxy (forwarder_headers).
            respuesta = cliente.get(
                gunicorn.base + "/prefijo" + PING, headers={"SCRIPT_NAME": "/prefijo"}
            )
        assert respuesta.status_code == 404, par
