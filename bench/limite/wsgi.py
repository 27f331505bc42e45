"""WSGI entry of the limit project (gunicorn bench.limite.wsgi)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.limite.settings"
application = get_wsgi_application()
