"""WSGI entry point (gunicorn hub.wsgi)."""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
application = get_wsgi_application()

# What is built at start (modules, models, the URLconf with its views, the tool registry) lives
# as long as the process. Frozen, a full collection no longer walks it: each one took 40-50 ms
# in a worker, and at one connection that pause is a search's p99 (docs/rendimiento.md).
get_resolver().reverse_dict  # noqa: B018 (loads the URLconf and its map now, to be frozen)
gc.freeze()
