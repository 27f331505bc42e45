"""WSGI entry point (gunicorn hub.wsgi); gunicorn.conf.py loads it in the master (preload_app)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
application = get_wsgi_application()

from hub.operacion import arranque  # noqa: E402 (needs the settings configured above)

arranque.listo()  # the URL maps filled, nothing left open, the start-up objects frozen
