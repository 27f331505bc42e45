"""Settings of the hub, read from the environment (12-factor); defaults run on one machine."""

from __future__ import annotations

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()


def _bool(name: str, default: bool) -> bool:
    """A boolean variable; anything but the usual spellings is an error, not False."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on", "si", "sí"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false).")


def _int(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole-number variable that must be at least `minimum`."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}.")
    return value


def _list(name: str, default: list[str]) -> list[str]:
    """A comma-separated variable."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = _bool("DEBUG", False)
_DEV_SECRET = "dev-insecure-only-for-local-use-0123456789-abcdefghijklmnopqrstuvwxyz"
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET
ALLOWED_HOSTS = _list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS", [])

# How many reverse proxies in front of us append to X-Forwarded-For (0: use REMOTE_ADDR).
HUB_PROXIES_CONFIABLES = _int("HUB_PROXIES_CONFIABLES", 0)
# Largest request body accepted under /api/ (bytes); more is 413 PAYLOAD_DEMASIADO_GRANDE.
HUB_MAX_CUERPO = _int("HUB_MAX_CUERPO", 1024 * 1024, minimum=1024)
# Public base address used in absolute links when no request is at hand (e.g. QR codes).
HUB_URL_PUBLICA = os.environ.get("HUB_URL_PUBLICA", "http://127.0.0.1:8000").rstrip("/")
HUB_VERSION = "1.0.0"
# Days a new API key lasts unless the administrator picks another date.
HUB_CLAVE_API_DIAS = _int("HUB_CLAVE_API_DIAS", 365, minimum=1)

INSTALLED_APPS = [
    "hub.sitio_admin.AdminHubConfig",  # django.contrib.admin under the brand
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "hub",
    "apps.cuentas",
    "apps.marca",
    "apps.firmas",
    "apps.solicitudes",
    "apps.presupuesto",
    "apps.calidad",
    "apps.mcp",
    "apps.notificaciones",
]

MIDDLEWARE = [
    # First: every later log line carries the request id, and the access line sees every answer.
    "hub.middleware.RegistroPeticionMiddleware",
    "hub.middleware.CabecerasSeguridadMiddleware",
    "hub.middleware.PrimeraLineaMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "hub.middleware.api_sin_csrf",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "hub.urls"
WSGI_APPLICATION = "hub.wsgi.application"
AUTH_USER_MODEL = "cuentas.User"
LOGIN_URL = "cuentas:login"
LOGIN_REDIRECT_URL = "cuentas:perfil"
LOGOUT_REDIRECT_URL = "cuentas:login"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.marca.context_processors.marca",
                "hub.seguridad.nonce",
            ],
        },
    }
]

VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'hub.sqlite3'}")}
DATABASES["default"]["CONN_MAX_AGE"] = _int("HUB_CONN_MAX_AGE", 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (runserver) and processes write: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Tests running side by side on one Redis each get their own prefix.
_CACHE_PREFIX = os.environ.get("HUB_CACHE_PREFIJO", "hub") + os.environ.get(
    "PYTEST_XDIST_WORKER", ""
)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "hub.cache.CacheRedis",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": _CACHE_PREFIX,
            # Short timeouts: a dead cache must turn into a clear answer fast, not a hang.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "hub",
            "KEY_PREFIX": _CACHE_PREFIX,
        }
    }

SESSION_ENGINE = "django.contrib.sessions.backends.db"
# A password-reset link lasts two hours (Django's default is three days).
PASSWORD_RESET_TIMEOUT = 2 * 3600
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "es-co"
# Corrections to Django's Spanish catalogues: month names in lower case, "usted" everywhere.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Bogota"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_ROOT = Path(os.environ.get("HUB_MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "/media/"

# Admin uploads (brand images) are bounded by the brand's own size limit.
DATA_UPLOAD_MAX_MEMORY_SIZE = HUB_MAX_CUERPO
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["hub.respuestas.RenderizadorJSON"],
    "DEFAULT_PARSER_CLASSES": ["hub.parsers.ParserJSON"],
    "EXCEPTION_HANDLER": "hub.respuestas.manejar_excepcion_drf",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

# OpenAPI 3 of the v1 interface (hub/openapi/): served at /api/schema/, page at /api/docs/,
# committed as docs/openapi.yaml (`make openapi`). Nothing here may depend on the environment:
# the committed file must equal what any machine generates.
SPECTACULAR_SETTINGS = {
    "TITLE": "Hub institucional: API v1",
    "DESCRIPTION": (
        "Identidad visual pública, verificación de firmas, ping de cada servicio, mensajes de "
        "contacto y el servidor del asistente (JSON-RPC 2.0, MCP 2025-06-18). Todas las "
        "respuestas JSON usan el sobre `{success, data, message}` / `{success: false, error: "
        "{code, detalle, campos?}, message}`, salvo el asistente (JSON-RPC) y el ping de "
        "archivos. Toda ruta /api/ puede responder 413 (cuerpo demasiado grande), 429 (límite "
        "global por IP, con Retry-After) y 500."
    ),
    "VERSION": HUB_VERSION,
    "OAS_VERSION": "3.0.3",
    "DEFAULT_GENERATOR_CLASS": "hub.openapi.generador.Generador",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PUBLIC": True,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SORT_OPERATIONS": True,
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # Enums stay inline, next to their field: few, short, and clearer to read that way.
    "POSTPROCESSING_HOOKS": ["hub.openapi.generador.sin_marcas_internas"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TAGS": [
        {"name": "Marca", "description": "Identidad visual pública y sus imágenes."},
        {"name": "Firmas", "description": "Verificación pública de firmas por código QR."},
        {"name": "Ping", "description": "Vida de cada servicio."},
        {"name": "Contacto", "description": "Formulario de contacto de los sitios web."},
        {"name": "Asistente", "description": "Servidor MCP (JSON-RPC 2.0)."},
    ],
}

# The brand endpoints must not be callable from other sites' browsers: no CORS origin allowed.
CORS_ALLOWED_ORIGINS = _list("HUB_CORS_ORIGENES", [])
CORS_URLS_REGEX = r"^/notificaciones/api/public/.*$"
# Only the contact endpoint opens CORS (per configured site); browsers may read the limit headers.
CORS_EXPOSE_HEADERS = [
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Limit-Dia",
    "X-RateLimit-Remaining-Dia",
]

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "hub@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _bool("EMAIL_USE_TLS", False)
# Mail leaves after commit, inside the request: a slow server must not hold the answer long.
EMAIL_TIMEOUT = _int("EMAIL_TIMEOUT", 10, minimum=1)

# json: one object per line for a log shipper (default under HUB_PRODUCCION); texto: for people.
HUB_LOG_FORMATO = (
    os.environ.get("HUB_LOG_FORMATO") or ("json" if _bool("HUB_PRODUCCION", False) else "texto")
).strip()
if HUB_LOG_FORMATO not in {"json", "texto"}:
    raise ImproperlyConfigured(f"HUB_LOG_FORMATO={HUB_LOG_FORMATO!r}: use json or texto.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "hub.registro_logs.FormatoJSON"},
        "texto": {"()": "hub.registro_logs.FormatoTexto"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": HUB_LOG_FORMATO}},
    "root": {"handlers": ["console"], "level": os.environ.get("HUB_LOG_LEVEL", "INFO")},
    # django.template at DEBUG logs whole template contexts: a page that shows a secret once
    # (a new API key or token) must never reach a log, whatever HUB_LOG_LEVEL says.
    "loggers": {"django.request": {"level": "ERROR"}, "django.template": {"level": "INFO"}},
}

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = False
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

HUB_PRODUCCION = _bool("HUB_PRODUCCION", False)
if HUB_PRODUCCION:
    # Django's own deploy check (security.W009): 50+ characters, 5+ distinct, no insecure prefix.
    if (
        SECRET_KEY == _DEV_SECRET
        or len(SECRET_KEY) < 50
        or len(set(SECRET_KEY)) < 5
        or SECRET_KEY.startswith("django-insecure-")
    ):
        raise ImproperlyConfigured(
            "HUB_PRODUCCION needs a strong SECRET_KEY (50+ random characters)."
        )
    SECURE_SSL_REDIRECT = _bool("HUB_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = _int("HUB_HSTS_SEGUNDOS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
