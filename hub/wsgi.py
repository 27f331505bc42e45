"""WSGI entry point (gunicorn hub.wsgi); gunicorn.conf.py loads it in the master (preload_app)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
application = get_wsgi_application()

from hub import arranque  # noqa: E402 (needs the settings configured above)

get_resolver().reverse_dict  # noqa: B018 (loads the URLconf and its map now, to be frozen)
arranque.listo()
