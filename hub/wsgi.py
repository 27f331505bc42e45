"""WSGI entry point (gunicorn hub.wsgi); gunicorn.conf.py loads it in the master (preload_app)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
django_wsgi = get_wsgi_application()

from hub.http.chunked import PorPartes  # noqa: E402 (needs the settings configured above)
from hub.operacion import arranque  # noqa: E402

# A chunked body is read, within its limits, before Django builds the request (hub/http/chunked.py).
application = PorPartes(django_wsgi)

arranque.listo()  # the URL maps filled, nothing left open, the start-up objects frozen
