"""The WSGI entry point: what the process builds at start is out of the collector's way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]


def _sondear(sonda: str, *argumentos: str, xdist: bool = True) -> subprocess.CompletedProcess:
    """Run a probe in a fresh interpreter with the hub's settings (DEBUG: no secret needed)."""
    entorno = {**os.environ, "DJANGO_SETTINGS_MODULE": "hub.settings", "DEBUG": "true"}
    if not xdist:
        entorno.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-c", sonda, *argumentos],
        cwd=RAIZ,
        env=entorno,
        capture_output=True,
        text=True,
        timeout=60,
    )


_SONDA = """
import gc, sys
import hub.wsgi
from django.conf import settings
from django.urls import get_resolver
congelados = gc.get_freeze_count()
# The URLconf (and with it every view and the MCP tool registry) was loaded before the freeze.
cargada = (
    settings.ROOT_URLCONF in sys.modules
    and "urlconf_module" in get_resolver().__dict__
    and "hub.herramientas.registro" in sys.modules
)
print(congelados, cargada)
"""


def _palabras(sonda: str, *, xdist: bool = True) -> list[str]:
    """What a probe that must succeed printed, word by word."""
    resultado = _sondear(sonda, xdist=xdist)
    resultado.check_returncode()
    return resultado.stdout.split()


def test_the_wsgi_application_reads_a_chunked_body_before_django_builds_the_request():
    salida = _palabras(
        "import hub.wsgi\n"
        "from django.core.handlers.wsgi import WSGIHandler\n"
        "from hub.http.chunked import PorPartes\n"
        "a = hub.wsgi.application\n"
        "print(isinstance(a, PorPartes), isinstance(a.aplicacion, WSGIHandler))\n"
    )
    assert salida == ["True", "True"]


def test_loading_the_wsgi_application_freezes_the_start_up_objects_urlconf_included():
    salida = _palabras(_SONDA)
    congelados, cargada = int(salida[0]), salida[1]
    # Django, DRF, psycopg and the hub's own modules: well over fifty thousand objects.
    assert congelados > 50_000
    assert cargada == "True"


_SONDA_ABIERTO = """
import os, threading
import hub.wsgi
from django.core.cache import caches
from django.db import connections
# Use the cache and the database as a request would, then let the start-up path close them.
caches["default"].get("sonda")
connections["default"].ensure_connection()
from hub.operacion import arranque
arranque.listo()
sockets = []
for f in os.listdir("/proc/self/fd"):
    try:
        if os.readlink(f"/proc/self/fd/{f}").startswith("socket:"):
            sockets.append(f)
    except OSError:
        pass  # the listing's own descriptor, closed by now
abiertas = [c.alias for c in connections.all() if c.connection is not None]
print(threading.active_count(), len(sockets), len(abiertas))
"""


def test_the_start_up_path_leaves_nothing_open_that_a_fork_would_share():
    """gunicorn forks the workers from the master that ran this (preload_app)."""
    salida = _palabras(_SONDA_ABIERTO, xdist=False)
    hilos, sockets, conexiones = (int(x) for x in salida)
    assert hilos == 1  # no thread started at load
    assert sockets == 0  # no Redis nor PostgreSQL socket left open
    assert conexiones == 0


_SONDA_URLS = """
import hub.wsgi
from django.urls import NoReverseMatch, get_resolver, reverse
from django.urls.resolvers import URLResolver

llenados = []
original = URLResolver._populate
URLResolver._populate = lambda self: (llenados.append(self), original(self))[1]
for espacio, (_extra, incluido) in get_resolver().namespace_dict.items():
    nombre = next(n for n in incluido.reverse_dict if isinstance(n, str))
    try:
        reverse(f"{espacio}:{nombre}")
    except NoReverseMatch:
        pass  # a name that needs arguments: the maps were consulted all the same
print(len(get_resolver().namespace_dict), len(llenados))
"""


def test_every_namespace_map_is_filled_at_load_not_in_a_workers_first_request():
    """The admin's map alone took 290 ms in the first reverse("admin:index") of a new worker."""
    salida = _palabras(_SONDA_URLS)
    espacios, llenados = int(salida[0]), int(salida[1])
    assert espacios >= 5  # admin, cuentas, mcp, ... each probed
    assert llenados == 0


_SONDA_SALIDA = """
import atexit, logging, sys
import django
django.setup()
from hub.operacion import arranque
atexit.register(lambda: print("teardown"))
logging.getLogger("hub.prueba").warning("antes de salir")
try:
    sys.exit(int(sys.argv[1]))
finally:
    arranque.salir_ya(None, None)
"""


def _salir(codigo: int) -> subprocess.CompletedProcess:
    return _sondear(_SONDA_SALIDA, str(codigo))


def test_a_worker_leaves_without_the_interpreters_teardown_keeping_its_exit_code():
    """gunicorn reads 3 and 4 as "the worker cannot boot": the code must survive the fast exit."""
    for codigo in (0, 3, 4):
        salida = _salir(codigo)
        assert salida.returncode == codigo
        assert "teardown" not in salida.stdout  # atexit (and the teardown) skipped
        assert "antes de salir" in salida.stderr  # the logs were flushed first
