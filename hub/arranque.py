"""A process with its application loaded, before it serves or forks (gunicorn's preload_app).

gunicorn.conf.py loads the application once in the master and forks the workers from it: a
recycled worker starts in milliseconds instead of importing Django again. What the master holds
is then inherited by every worker, so nothing that must not be shared may stay open: database
connections and Redis sockets are closed here (the load opens none today: this keeps it so), and
so are the file cache's SQLite handles. The rest takes care of itself after a fork, each by its
own pid check: `random` reseeds in the child (os.register_at_fork), redis-py's pools and
diskcache reopen, logging re-creates its locks, prometheus-client opens the child's own files.
No thread is started at load (tests/hub/test_wsgi.py looks).
"""

from __future__ import annotations

import gc

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connections


def soltar_conexiones() -> None:
    """Close every database connection and cache client this process opened."""
    connections.close_all()
    for cache in caches.all(initialized_only=True):
        cache.close()  # the file cache's SQLite handles
        if isinstance(cache, RedisCache):
            for pool in cache._cache._pools.values():
                pool.disconnect()  # Django's close() leaves Redis sockets open


def listo() -> None:
    """Loaded: close what must not be shared, then freeze what was built at start.

    Frozen, the start-up objects (modules, models, the URLconf and its views, the tool registry)
    are out of the collector's way for the life of the process: a full collection took 40-50 ms
    in a worker, 2-4 ms frozen (docs/rendimiento.md). Under preload the master freezes them and
    every worker inherits them frozen.
    """
    soltar_conexiones()
    gc.freeze()
