"""The identity cache across processes: a server answers from the shared cache, and a change made
by another process (an administrator's, or the person's own) is obeyed on its next request.

The cache is the run's own: Redis when the suite runs with REDIS_URL, the file cache otherwise.
"""

from __future__ import annotations

import time

import pytest

from tests.procesos import base_migrada, credenciales_mcp, manage, ping_mcp, servidores

pytestmark = pytest.mark.procesos

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
    with base_migrada(carpeta) as env:
        credenciales = credenciales_mcp(env, list(CAMBIOS), 30 * 86400)
        with servidores(env, 1) as (base,):
            yield base, env, credenciales


@pytest.fixture(scope="module")
def cambiados(servidor):
    """Every case answered (and cached) by the server, then changed by another process at once."""
    base, env, credenciales = servidor
    cabeceras = {
        caso: {k: v for k, v in d.items() if k != "vence"} for caso, d in credenciales.items()
    }
    for caso in CAMBIOS:
        assert ping_mcp(base, cabeceras[caso]).status_code == 200, caso
        assert ping_mcp(base, cabeceras[caso]).status_code == 200, caso  # from the cached identity
    manage(env, "shell", "-c", CABECERA + "\n".join(codigo for codigo, _ in CAMBIOS.values()))
    return base, cabeceras


@pytest.mark.parametrize("caso", list(CAMBIOS))
def test_a_change_made_by_another_process_is_obeyed_on_the_next_request(cambiados, caso):
    base, cabeceras = cambiados
    r = ping_mcp(base, cabeceras[caso])  # the first request after the change, not after a TTL
    assert r.status_code == CAMBIOS[caso][1], r.text


def test_a_token_that_expires_is_refused_from_the_cached_identity(servidor):
    base, env, _credenciales = servidor
    (datos,) = credenciales_mcp(env, ["vence"], 15).values()
    vence = datos.pop("vence")
    assert ping_mcp(base, datos).status_code == 200
    assert ping_mcp(base, datos).status_code == 200  # cached now, with its expiry inside
    time.sleep(max(0.0, vence - time.time()) + 1)
    r = ping_mcp(base, datos)
    assert (r.status_code, r.json()["error"]["code"]) == (401, "TOKEN_MCP_INVALIDO")
