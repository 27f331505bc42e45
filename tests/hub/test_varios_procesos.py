from __future__ import annotations

import uuid

import httpx
import pytest

from tests.procesos import entorno, manage, servidores

pytestmark = pytest.mark.procesos


@pytest.fixture(scope="module")
def dos_servidores(tmp_path_factory):
    env = entorno(tmp_path_factory.mktemp("procesos"))
    # One trusted proxy: each attempt below can then act as a fresh client IP.
    env["HUB_PROXIES_CONFIABLES"] = "1"
    manage(env, "migrate", "--noinput")
    with servidores(env, 2) as bases:
        yield bases


def _ip_nueva() -> str:
    n = uuid.uuid4().int
    return f"10.{n % 250}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


def _ronda_de_marca(http: httpx.Client, bases: list[str]) -> tuple[list[int], httpx.Response]:
    """600 brand requests alternating between hosts from one client, then the 601st."""
    cabeceras = {"X-Forwarded-For": _ip_nueva()}
    restantes = []
    for i in range(600):
        r = http.get(f"{bases[i % 2]}/auth/api/v1/auth/marca", headers=cabeceras)
        assert r.status_code == 200, r.text
        restantes.append(int(r.headers["X-RateLimit-Remaining"]))
    return restantes, http.get(f"{bases[1]}/auth/api/v1/auth/marca", headers=cabeceras)


def test_the_601st_brand_request_is_429_whichever_host_counted_the_600(dos_servidores):
    with httpx.Client(timeout=5) as http:
        for _intento in range(2):
            restantes, ultima = _ronda_de_marca(http, dos_servidores)
            # A fixed window may end mid-round; then the count restarts and we try once more.
            if restantes == list(range(599, -1, -1)):
                break
        assert restantes == list(range(599, -1, -1))
        assert ultima.status_code == 429
        assert ultima.json()["error"]["code"] == "RATE_LIMIT"
        assert int(ultima.headers["Retry-After"]) >= 1
        assert ultima.headers["X-RateLimit-Remaining"] == "0"


def test_two_processes_sharing_redis_share_one_global_count(dos_servidores):
    a, b = dos_servidores
    cabeceras = {"X-Forwarded-For": _ip_nueva()}
    with httpx.Client(timeout=5) as http:
        restantes = []
        for i in range(20):
            r = http.get(f"{(a, b)[i % 2]}/solicitudes/api/v1/ping", headers=cabeceras)
            assert r.status_code == 200
            restantes.append(int(r.headers["X-RateLimit-Global-Remaining"]))
        primero = restantes[0]
        if restantes != list(range(primero, primero - 20, -1)):  # window ended mid-round
            restantes = [
                int(
                    http.get(f"{(a, b)[i % 2]}/solicitudes/api/v1/ping", headers=cabeceras).headers[
                        "X-RateLimit-Global-Remaining"
                    ]
                )
                for i in range(20)
            ]
            primero = restantes[0]
        assert restantes == list(range(primero, primero - 20, -1))
