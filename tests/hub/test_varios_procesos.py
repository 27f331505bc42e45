from __future__ import annotations

import httpx
import pytest

from tests.procesos import entorno, manage, servidores

pytestmark = pytest.mark.procesos


@pytest.fixture(scope="module")
def dos_servidores(tmp_path_factory):
    env = entorno(tmp_path_factory.mktemp("procesos"))
    manage(env, "migrate", "--noinput")
    manage(
        env,
        "shell",
        "-c",
        "from hub.models import Limites; "
        "Limites.objects.update_or_create(pk=1, defaults={'global_por_minuto': 30})",
    )
    with servidores(env, 2) as bases:
        yield bases


def test_two_processes_sharing_redis_share_one_global_count(dos_servidores):
    a, b = dos_servidores
    restantes = []
    with httpx.Client(timeout=5) as http:
        for i in range(20):
            r = http.get(f"{(a, b)[i % 2]}/solicitudes/api/v1/ping")
            assert r.status_code == 200
            restantes.append(int(r.headers["X-RateLimit-Global-Remaining"]))
        # The start-up probes counted too: what matters is one strictly falling shared count.
        assert restantes == sorted(restantes, reverse=True)
        assert len(set(restantes)) == len(restantes)
        while True:
            r = http.get(f"{a}/solicitudes/api/v1/ping")
            if r.status_code == 429:
                break
            assert int(r.headers["X-RateLimit-Global-Remaining"]) >= 0
        otro = http.get(f"{b}/solicitudes/api/v1/ping")
        assert otro.status_code == 429
        assert otro.json()["error"]["code"] == "RATE_LIMIT"
        assert int(otro.headers["Retry-After"]) >= 1
