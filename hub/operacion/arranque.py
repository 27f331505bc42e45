"""A process with its application loaded, before it serves or forks (gunicorn's preload_app).

gunicorn.conf.py loads the application once in the master and forks the workers from it: a
recycled worker starts in milliseconds instead of importing Django again. What the master holds
is then inherited by every worker, so nothing that must not be shared may stay open: database
connections and Redis sockets are closed here (the load opens none today: this keeps it so), and
so are the file cache's SQLite handles. The rest takes care of itself after a fork, each by its
own pid check: `random` reseeds in the child (os.register_at_fork), redis-py's pools and
diskcache reopen, logging re-creates its locks, prometheus-client opens the child's own files.
No thread is started at load (tests/hub/test_wsgi.py looks).

Two more costs of a restart live here: what Django fills on first use (every namespace's URL
map: `poblar_urls`, before the freeze) and the old worker's exit (`salir_ya`, gunicorn's
worker_exit): measured, docs/decisiones.md.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from typing import Any

from django.core.cache import caches
from django.db import connections
from django.urls import URLResolver, get_resolver
from django.urls.resolvers import get_ns_resolver

from hub.cache.almacenes import CacheRedis


def soltar_conexiones() -> None:
    """Close every database connection and cache client this process opened."""
    connections.close_all()
    for cache in caches.all(initialized_only=True):
        cache.close()  # the file cache's SQLite handles
        if isinstance(cache, CacheRedis):
            cache.cliente.desconectar()  # Django's close() leaves Redis sockets open


def poblar_urls(
    resolver: URLResolver | None = None, prefijo: str = "", convertidores: tuple = ()
) -> None:
    """The URL maps, each namespace's too (admin:, cuentas:...). Django fills a map on its first
    use, and reverse("admin:index") goes through a resolver of its own per namespace
    (get_ns_resolver, cached): filling the admin's took 290 ms in a new worker's first request.
    """
    resolver = resolver or get_resolver()
    resolver.reverse_dict  # noqa: B018 (fills this resolver's maps)
    for extra, incluido in resolver.namespace_dict.values():
        # The same arguments reverse() builds for a name in this namespace.
        patron = prefijo + extra
        todos = {**dict(convertidores), **incluido.pattern.converters}
        get_ns_resolver(patron, incluido, tuple(todos.items())).reverse_dict  # noqa: B018
        poblar_urls(incluido, patron, tuple(todos.items()))


def salir_ya(server: Any, worker: Any) -> None:
    """gunicorn's worker_exit: end the worker without the interpreter's teardown.

    Freeing every object of a worker one by one took about 200 ms under load, and with one
    worker no request was answered meanwhile (the master forks the next one only when this one
    is gone). What the teardown would do that matters is done here first: connections closed,
    logs flushed. Only for a normal exit (SystemExit, with its code: the master reads 3 and 4 as
    "cannot boot"); anything else ends the usual way.
    """
    saliendo = sys.exc_info()[1]
    if not isinstance(saliendo, SystemExit) or not isinstance(saliendo.code, int | None):
        return
    soltar_conexiones()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(saliendo.code or 0)


def listo() -> None:
    """Loaded: close what must not be shared, then freeze what was built at start.

    Frozen, the start-up objects (modules, models, the URLconf and its views, the tool registry)
    are out of the collector's way for the life of the process: a full collection took 40-50 ms
    in a worker, 2-4 ms frozen (docs/rendimiento.md). Under preload the master freezes them and
    every worker inherits them frozen.
    """
    poblar_urls()
    soltar_conexiones()
    gc.freeze()
