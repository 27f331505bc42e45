"""Smallest Django project that answers JSON: no apps, no middleware, no database."""

from __future__ import annotations

SECRET_KEY = "bench-limite-sin-secretos"  # signs nothing: one constant answer
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "bench.limite.urls"
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
DATABASES: dict[str, dict] = {}
USE_TZ = True
TIME_ZONE = "America/Bogota"
USE_I18N = False
LOGGING_CONFIG = None
