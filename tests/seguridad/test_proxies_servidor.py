"""Against a real gunicorn trusting one proxy (127.0.0.1): a client that connects from 127.0.0.2,
which is not that proxy, and forges X-Forwarded-For is still limited by its real address."""

from __future__ import annotations

import httpx
import pytest

from tests.procesos import entorno_migrado, manage, servidores

pytestmark = pytest.mark.procesos

PING = "/auth/api/v1/ping"
LIMITE = 3


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    env = entorno_migrado(tmp_path_factory.mktemp("proxies"), HUB_PROXIES_CONFIABLES="127.0.0.1")
    manage(
        env,
        "shell",
        "-c",
        f"from hub.models import Limites; l = Limites.cargar(); l.global_por_minuto = {LIMITE}; "
        "l.save()",
    )
    with servidores(env, 1) as (url,):
        yield url


def _desde(direccion: str) -> httpx.Client:
    """A client whose connections leave from this local address (127.0.0.0/8 is all loopback)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=direccion), timeout=10)


def test_a_client_that_is_not_a_trusted_proxy_is_limited_by_its_real_address(base):
    with _desde("127.0.0.2") as cliente:
        respuestas = [
            cliente.get(base + PING, headers={"X-Forwarded-For": f"203.0.113.{i}"})
            for i in range(1, LIMITE + 2)
        ]
    assert [r.status_code for r in respuestas] == [200] * LIMITE + [429]
    ultima = respuestas[-1]
    assert ultima.json()["error"]["code"] == "RATE_LIMIT"
    assert int(ultima.headers["Retry-After"]) >= 1
    assert [r.headers["X-RateLimit-Global-Remaining"] for r in respuestas] == ["2", "1", "0", "0"]


def test_the_trusted_proxy_reports_the_client_it_saw(base):
    with _desde("127.0.0.3") as directo:
        for _ in range(LIMITE):
            assert directo.get(base + PING).status_code == 200
    with _desde("127.0.0.1") as proxy:
        # Another client behind the proxy has its own count...
        otro = proxy.get(base + PING, headers={"X-Forwarded-For": "198.51.100.20"})
        assert otro.status_code == 200
        assert otro.headers["X-RateLimit-Global-Remaining"] == str(LIMITE - 1)
        # ...and 127.0.0.3 seen through the proxy is the client above, already at its limit.
        mismo = proxy.get(base + PING, headers={"X-Forwarded-For": "203.0.113.50, 127.0.0.3"})
    assert mismo.status_code == 429
