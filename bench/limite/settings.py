"""Smallest Django project that answers JSON: no apps, no middleware; a database only for the
floor of a tool call (bench/limite/herramienta.py), with the hub's connection settings.

REST_FRAMEWORK is the hub's (hub/settings.py) minus the schema class: the DRF floor
(bench/limite/suelo.py) renders and negotiates the way the hub configures DRF.
"""

from __future__ import annotations

import os

import environ

from hub.operacion.conexiones import SENTENCIAS_PREPARADAS

SECRET_KEY = "bench-limite-sin-secretos"  # signs nothing: one constant answer
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "bench.limite.urls"
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
DATABASES: dict[str, dict] = {}
if os.environ.get("DATABASE_URL"):
    # As hub/settings.py: persistent connections, checked before each request's first query.
    DATABASES["default"] = environ.Env().db_url("DATABASE_URL")
    DATABASES["default"]["CONN_MAX_AGE"] = 60
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # As hub/settings.py: statements prepared unless HUB_SENTENCIAS_PREPARADAS is false.
    if environ.Env().bool("HUB_SENTENCIAS_PREPARADAS", default=True):
        DATABASES["default"]["OPTIONS"] = dict(SENTENCIAS_PREPARADAS)
USE_TZ = True
TIME_ZONE = "America/Bogota"
USE_I18N = False
LOGGING_CONFIG = None
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["hub.http.respuestas.RenderizadorJSON"],
    "DEFAULT_PARSER_CLASSES": ["hub.http.parsers.ParserJSON"],
    "EXCEPTION_HANDLER": "hub.http.respuestas.manejar_excepcion_drf",
}
