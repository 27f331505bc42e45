"""The identity and brand caches across the workers of gunicorn.conf.py as deployed: several
workers forked from a master that loaded the application (preload_app). A token revoked, a person
blocked or the brand changed by another process is obeyed by every worker on its next request,
each worker having answered (and cached) them before.

The cache is the run's own: Redis when the suite runs with REDIS_URL (the README's production
block), the file cache otherwise (the Dockerfile's embedded default).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.procesos import (
    Gunicorn,
    base_migrada,
    credenciales_mcp,
    gunicorn_conf,
    manage,
    ping_mcp,
)

pytestmark = pytest.mark.procesos

MCP = "/mcp/api/mcp"
MARCA = "/auth/api/v1/auth/marca"
# Each case: the change another process makes, and the refusal every worker then answers.
CAMBIOS = {
    "token_revocado": (
        "p = User.objects.get(username='p_token_revocado')\n"
        "services.revocar_token_personal(usuario=p, token_id=p.tokens_mcp.get().pk)",
        401,
        "TOKEN_MCP_INVALIDO",
    ),
    "persona_bloqueada": (
        "p = User.objects.get(username='p_persona_bloqueada')\np.is_active = False\np.save()",
        403,
        "SIN_PERMISO",
    ),
}
CAMBIAR = (
    "from apps.cuentas.models import User\n"
    "from apps.marca import services as marca\n"
    "from apps.mcp import services\n"
    + "\n".join(codigo for codigo, _status, _code in CAMBIOS.values())
    + "\nmarca.actualizar_marca(cambios={'color_primario': '#5B2A86'})\n"
)


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    """gunicorn -c gunicorn.conf.py with two workers on the shared database and the run's cache;
    a person with a personal token per case."""
    carpeta = tmp_path_factory.mktemp("identidad_workers")
    with base_migrada(carpeta) as env:
        credenciales = credenciales_mcp(env, list(CAMBIOS), 86400)
        cabeceras = {
            caso: {k: v for k, v in datos.items() if k != "vence"}
            for caso, datos in credenciales.items()
        }
        with gunicorn_conf(env, carpeta, WEB_CONCURRENCY="2") as gunicorn:
            yield gunicorn, env, cabeceras


def _en_cada_worker(
    gunicorn: Gunicorn, ruta: str, pedir: Callable[[], httpx.Response]
) -> list[httpx.Response]:
    """`pedir()` four at a time, until every worker has answered it at least twice (the first
    fills its caches, the second reads them); every answer, in order."""
    desde = len(gunicorn.log.read_text())
    respuestas: list[httpx.Response] = []
    for _ronda in range(20):
        with ThreadPoolExecutor(4) as hilos:
            respuestas += hilos.map(lambda _i: pedir(), range(8))
        time.sleep(0.1)  # the access lines follow the answers
        veces = Counter(gunicorn.pids_en_log(ruta, desde))
        if all(veces[str(pid)] >= 2 for pid in gunicorn.workers()):
            return respuestas
    raise AssertionError(f"not every worker answered {ruta}: {veces}, {gunicorn.workers()}")


def _ping(gunicorn: Gunicorn, cabeceras: dict[str, str]) -> httpx.Response:
    # A new connection each time: the kernel hands each to whichever worker accepts first.
    return ping_mcp(gunicorn.base, {**cabeceras, "Connection": "close"})


def _marca(gunicorn: Gunicorn) -> httpx.Response:
    return httpx.get(gunicorn.base + MARCA, timeout=10, headers={"Connection": "close"})


@pytest.fixture(scope="module")
def cambiados(servidor):
    """Every case and the brand answered by every worker, then changed by another process."""
    gunicorn, env, cabeceras = servidor
    for caso in CAMBIOS:
        respuestas = _en_cada_worker(gunicorn, MCP, lambda c=caso: _ping(gunicorn, cabeceras[c]))
        assert {r.status_code for r in respuestas} == {200}, caso
    etiquetas = {
        r.headers["ETag"] for r in _en_cada_worker(gunicorn, MARCA, lambda: _marca(gunicorn))
    }
    assert len(etiquetas) == 1
    manage(env, "shell", "-c", CAMBIAR)
    return gunicorn, cabeceras, etiquetas.pop()


@pytest.mark.parametrize("caso", list(CAMBIOS))
def test_every_worker_refuses_a_changed_credential_on_its_next_request(cambiados, caso):
    gunicorn, cabeceras, _etiqueta = cambiados
    _codigo, status, code = CAMBIOS[caso]
    respuestas = _en_cada_worker(gunicorn, MCP, lambda: _ping(gunicorn, cabeceras[caso]))
    vistas = {(r.status_code, r.json().get("error", {}).get("code")) for r in respuestas}
    assert vistas == {(status, code)}


def test_every_worker_serves_the_new_brand_on_its_next_request(cambiados):
    gunicorn, _cabeceras, anterior = cambiados
    respuestas = _en_cada_worker(gunicorn, MARCA, lambda: _marca(gunicorn))
    etiquetas = {r.headers["ETag"] for r in respuestas}
    assert len(etiquetas) == 1
    assert anterior not in etiquetas
    assert {r.json()["data"]["color_primario"] for r in respuestas} == {"#5B2A86"}
