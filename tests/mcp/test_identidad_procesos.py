"""The identity cache across processes: a server answers from the shared cache, and a change made
by another process (an administrator's, or the person's own) is obeyed on its next request.

The cache is the run's own: Redis when the suite runs with REDIS_URL, the file cache otherwise.
"""

from __future__ import annotations

import json
import os
import time

import httpx
import pytest

from tests.procesos import base_compartida, manage, servidores

pytestmark = pytest.mark.procesos

# One person per case (with the assistant permission, directly or through a group), each with
# an API key and a personal token; printed as JSON by the process that creates them.
PREPARAR = """
import json
from datetime import timedelta
from django.contrib.auth.models import Group, Permission
from django.utils import timezone
from apps.cuentas.models import User
from apps.mcp import services
usar = Permission.objects.get(content_type__app_label="mcp", codename="asistente.usar")
salida = {}
for caso in CASOS:
    persona = User.objects.create_user(username=f"p_{caso}", password="x-clave-larga-1")
    if caso in ("grupo_pierde_permiso", "sale_del_grupo"):
        grupo = Group.objects.create(name=f"g_{caso}")
        grupo.permissions.add(usar)
        persona.groups.add(grupo)
    else:
        persona.user_permissions.add(usar)
    _c, clave = services.crear_clave_api(nombre=f"k_{caso}")
    secreto = services.secretos.generar(services.secretos.PREFIJO_TOKEN)
    vence = timezone.now() + timedelta(seconds=SEGUNDOS)
    services.guardar_token(usuario=persona, nombre="t", secreto=secreto, vence=vence)
    salida[caso] = {"X-MCP-Api-Key": clave, "X-MCP-User-Token": secreto, "vence": vence.timestamp()}
print(json.dumps(salida))
"""
CAMBIOS = {
    "revocado_por_su_dueno": (
        "p = User.objects.get(username='p_revocado_por_su_dueno')\n"
        "services.revocar_token_personal(usuario=p, token_id=p.tokens_mcp.get().pk)",
        401,
    ),
    "revocado_por_administracion": (
        "services.revocar_tokens(ids=[TokenPersonal.objects.get("
        "usuario__username='p_revocado_por_administracion').pk])",
        401,
    ),
    "clave_revocada": (
        "services.revocar_claves(ids=[ClaveApi.objects.get(nombre='k_clave_revocada').pk])",
        401,
    ),
    "desactivado": (
        "p = User.objects.get(username='p_desactivado')\np.is_active = False\np.save()",
        403,
    ),
    "pierde_permiso": (
        "User.objects.get(username='p_pierde_permiso').user_permissions.remove(usar)",
        403,
    ),
    "grupo_pierde_permiso": (
        "Group.objects.get(name='g_grupo_pierde_permiso').permissions.remove(usar)",
        403,
    ),
    "sale_del_grupo": (
        "User.objects.get(username='p_sale_del_grupo').groups.clear()",
        403,
    ),
}
CABECERA = (
    "from django.contrib.auth.models import Group, Permission\n"
    "from apps.cuentas.models import User\n"
    "from apps.mcp import services\n"
    "from apps.mcp.models import ClaveApi, TokenPersonal\n"
    "usar = Permission.objects.get(content_type__app_label='mcp', codename='asistente.usar')\n"
)


@pytest.fixture(scope="module")
def servidor(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("identidad")
    with base_compartida(carpeta) as env:
        if not os.environ.get("REDIS_URL"):
            del env["REDIS_URL"]
            env["HUB_CACHE_DIR"] = str(carpeta / "cache")
        manage(env, "migrate", "--noinput")
        credenciales = _preparar(env, list(CAMBIOS), 30 * 86400)
        with servidores(env, 1) as (base,):
            yield base, env, credenciales


def _preparar(env: dict[str, str], casos: list[str], segundos: int) -> dict[str, dict]:
    """People, keys and tokens (valid `segundos`) made by another process; their secrets."""
    codigo = f"CASOS = {json.dumps(casos)}\nSEGUNDOS = {segundos}\n{PREPARAR}"
    salida = manage(env, "shell", "-c", codigo).stdout
    return json.loads(salida.strip().splitlines()[-1])


def _ping(base: str, cabeceras: dict[str, str]) -> httpx.Response:
    mensaje = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    return httpx.post(f"{base}/mcp/api/mcp", json=mensaje, headers=cabeceras, timeout=30)


@pytest.fixture(scope="module")
def cambiados(servidor):
    """Every case answered (and cached) by the server, then changed by another process at once."""
    base, env, credenciales = servidor
    cabeceras = {
        caso: {k: v for k, v in d.items() if k != "vence"} for caso, d in credenciales.items()
    }
    for caso in CAMBIOS:
        assert _ping(base, cabeceras[caso]).status_code == 200, caso
        assert _ping(base, cabeceras[caso]).status_code == 200, caso  # from the cached identity
    manage(env, "shell", "-c", CABECERA + "\n".join(codigo for codigo, _ in CAMBIOS.values()))
    return base, cabeceras


@pytest.mark.parametrize("caso", list(CAMBIOS))
def test_a_change_made_by_another_process_is_obeyed_on_the_next_request(cambiados, caso):
    base, cabeceras = cambiados
    r = _ping(base, cabeceras[caso])  # the first request after the change, not after a TTL
    assert r.status_code == CAMBIOS[caso][1], r.text


def test_a_token_that_expires_is_refused_from_the_cached_identity(servidor):
    base, env, _credenciales = servidor
    (datos,) = _preparar(env, ["vence"], 15).values()
    vence = datos.pop("vence")
    assert _ping(base, datos).status_code == 200
    assert _ping(base, datos).status_code == 200  # cached now, with its expiry inside
    time.sleep(max(0.0, vence - time.time()) + 1)
    r = _ping(base, datos)
    assert (r.status_code, r.json()["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")
