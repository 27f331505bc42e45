"""Smallest Django project that answers JSON: no apps, no middleware, no database.

REST_FRAMEWORK is the hub's (hub/settings.py) minus the schema class: the DRF floor
(bench/limite/suelo.py) renders and negotiates the way the hub configures DRF.
"""

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
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["hub.http.respuestas.RenderizadorJSON"],
    "DEFAULT_PARSER_CLASSES": ["hub.http.parsers.ParserJSON"],
    "EXCEPTION_HANDLER": "hub.http.respuestas.manejar_excepcion_drf",
}
