"""Settings of the hub, read from the environment (12-factor); defaults run on one machine."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from hub.http.ip import redes_confiables
from hub.operacion.conexiones import SENTENCIAS_PREPARADAS

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


class Entorno(environ.Env):
    """django-environ, with the project's rules on top.

    A typo stops the start naming the variable (django-environ would read `DEBUG=quizas` as
    False); an empty value means "not set"; and `$NAME` is not read as a reference to another
    variable (django-environ's proxying), because a secret may well start with `$`. Refusals are
    Spanish, like everything else an operator reads.
    """

    VERDADEROS = frozenset({"1", "true", "yes", "on", "si", "sí"})
    FALSOS = frozenset({"0", "false", "no", "off"})

    def get_value(self, var, cast=None, default=environ.Env.NOTSET, parse_default=False):
        crudo = self.ENVIRON.get(var, "")
        if crudo.strip() == "":
            if default is self.NOTSET:
                raise ImproperlyConfigured(f"Defina la variable de entorno {var}.")
            return self.parse_value(default, cast) if parse_default and cast else default
        try:
            return self.parse_value(crudo, cast) if cast is not None else crudo
        except (ValueError, TypeError) as exc:
            # Python's own texts are English ("invalid literal for int()..."): say it in Spanish.
            razon = {bool: str(exc), int: "no es un número entero", float: "no es un número"}
            raise ImproperlyConfigured(
                f"{var}={crudo!r} no es válido: {razon.get(cast, 'no se puede leer')}"
            ) from None

    @classmethod
    def parse_value(cls, value: Any, cast: Any) -> Any:
        if cast is bool and isinstance(value, str):
            texto = value.strip().lower()
            if texto in cls.VERDADEROS:
                return True
            if texto in cls.FALSOS:
                return False
            raise ValueError("no es un booleano (use true o false)")
        return super().parse_value(value, cast)

    def list(self, var, cast=None, default=environ.Env.NOTSET) -> list:
        """Comma-separated, each item stripped, empty items dropped."""
        return [item.strip() for item in super().list(var, cast, default) if str(item).strip()]

    def entero(self, var: str, default: int, *, minimo: int = 0) -> int:
        """A whole number that must be at least `minimo`."""
        valor = self.int(var, default=default)
        if valor < minimo:
            raise ImproperlyConfigured(f"{var}={valor} debe ser al menos {minimo}.")
        return valor

    def redes(self, var: str) -> tuple:
        """Comma-separated IP addresses or networks (hub.http.ip.redes_confiables); a bad item stops
        the start."""
        try:
            return redes_confiables(self.str(var, default=""))
        except ValueError as exc:
            raise ImproperlyConfigured(f"{var}: {exc}") from None


env = Entorno()

DEBUG = env.bool("DEBUG", default=False)
HUB_PRODUCCION = env.bool("HUB_PRODUCCION", default=False)
# With DEBUG: Django's technical error pages (traceback, settings, URL list) instead of the
# branded ones, for a developer who wants them; people trying the demo see the branded pages.
HUB_DEBUG_TECNICO = env.bool("HUB_DEBUG_TECNICO", default=False)
if HUB_PRODUCCION and DEBUG:
    # DEBUG answers errors with Django's technical pages: tracebacks, settings, the URL list.
    raise ImproperlyConfigured(
        "HUB_PRODUCCION no admite DEBUG=true: el modo de desarrollo muestra a cualquiera el "
        "detalle de los errores, los ajustes y la lista de rutas. Quite DEBUG o póngalo en false."
    )


def _secreto_de_desarrollo() -> str:
    """A random key kept in var/ for this checkout only: never a key anyone else can read."""
    archivo = VAR_DIR / "clave_secreta_desarrollo"
    if not archivo.exists():
        VAR_DIR.mkdir(exist_ok=True)
        descriptor = os.open(archivo, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as salida:
            salida.write(secrets.token_urlsafe(50))
    return archivo.read_text().strip()


# Outside DEBUG a missing key stops the start: a key everyone can read would let anyone sign
# sessions and confirmation tokens (and compute the demo credentials, derived from it).
SECRET_KEY = env.str("SECRET_KEY", default="")
if HUB_PRODUCCION and (
    # Django's own deploy check (security.W009): 50+ characters, 5+ distinct, no insecure prefix.
    len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured(
        "HUB_PRODUCCION necesita una SECRET_KEY fuerte: 50 o más caracteres aleatorios (por "
        'ejemplo: python -c "import secrets; print(secrets.token_urlsafe(64))").'
    )
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Falta SECRET_KEY (50 o más caracteres aleatorios); solo con DEBUG=true la reemplaza "
            "un secreto local de desarrollo guardado en var/."
        )
    SECRET_KEY = _secreto_de_desarrollo()
# Former keys, still accepted while a rotation ends (signed values, confirmation tokens).
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# The branded Spanish page (Django's own renders without the request: no brand, no CSP nonce).
CSRF_FAILURE_VIEW = "hub.http.paginas_error.csrf_fallido"

# The reverse proxies' addresses or networks (127.0.0.1,10.0.0.0/8): X-Forwarded-For is read only
# when the request comes from one of them (hub/http/ip.py). Empty: nobody, REMOTE_ADDR is the
# client.
HUB_PROXIES_CONFIABLES = env.redes("HUB_PROXIES_CONFIABLES")
# Largest request body accepted under /api/ (bytes); more is 413 PAYLOAD_DEMASIADO_GRANDE.
HUB_MAX_CUERPO = env.entero("HUB_MAX_CUERPO", 1024 * 1024, minimo=1024)
# Seconds a chunked body may take to arrive, then 400 (hub/http/chunked.py). Below gunicorn's
# timeout
# (30 s, gunicorn.conf.py), which would kill the worker first and answer its bare 500.
HUB_ESPERA_CUERPO = env.entero("HUB_ESPERA_CUERPO", 20, minimo=1)
# Public base address of the service: QR codes and the absolute links given to assistants.
# Required in production, and https there (a QR printed with the wrong address cannot be fixed
# afterwards, and the secure cookies only travel over HTTPS).
HUB_URL_PUBLICA = env.str("HUB_URL_PUBLICA", default="").rstrip("/")
if not HUB_URL_PUBLICA:
    if HUB_PRODUCCION:
        raise ImproperlyConfigured(
            "HUB_PRODUCCION necesita HUB_URL_PUBLICA (por ejemplo https://hub.entidad.gov.co): es "
            "la dirección impresa en los códigos QR y en los enlaces del asistente."
        )
    HUB_URL_PUBLICA = "http://127.0.0.1:8000"
elif HUB_PRODUCCION and not HUB_URL_PUBLICA.lower().startswith("https://"):
    raise ImproperlyConfigured(
        f"HUB_URL_PUBLICA={HUB_URL_PUBLICA!r} debe empezar por https:// con HUB_PRODUCCION: es la "
        "dirección impresa en los códigos QR y en los enlaces del asistente, y las cookies "
        "seguras solo viajan por HTTPS."
    )
HUB_VERSION = "1.0.0"
# Who may read /metricas/ (hub/observabilidad/metricas_vista.py): these networks, and/or this
# bearer secret.
HUB_METRICAS_REDES = env.redes("HUB_METRICAS_REDES")
HUB_METRICAS_TOKEN = env.str("HUB_METRICAS_TOKEN", default="").strip()
if HUB_METRICAS_TOKEN and len(HUB_METRICAS_TOKEN) < 32:
    raise ImproperlyConfigured(
        "HUB_METRICAS_TOKEN es demasiado corto: use al menos 32 caracteres aleatorios "
        "(p. ej. python -c 'import secrets; print(secrets.token_urlsafe(32))')."
    )
# Days a new API key lasts unless the administrator picks another date.
HUB_CLAVE_API_DIAS = env.entero("HUB_CLAVE_API_DIAS", 365, minimo=1)

INSTALLED_APPS = [
    "hub.administracion.sitio.AdminHubConfig",  # django.contrib.admin under the brand
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "apps.autorizacion.apps.OAuthBibliotecaConfig",  # django-oauth-toolkit
    "hub",
    "apps.cuentas",
    "apps.marca",
    "apps.firmas",
    "apps.solicitudes",
    "apps.presupuesto",
    "apps.calidad",
    "apps.mcp",
    "apps.autorizacion",
    "apps.portal",
    "apps.notificaciones",
]

MIDDLEWARE = [
    # Outermost: every answer counted and timed by its route (hub/observabilidad/metricas.py), 429s
    # included.
    "hub.observabilidad.metricas.MetricasMiddleware",
    # Then: every later log line carries the request id, and the access line sees every answer.
    "hub.http.middleware.LogPeticionMiddleware",
    "hub.http.middleware.CabecerasSeguridadMiddleware",
    "hub.http.middleware.TamanoCuerpoMiddleware",
    "hub.http.middleware.LimiteGlobalMiddleware",
    "hub.http.middleware.ErroresApiMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.notificaciones.cors.CorsPreflight204Middleware",
    # Session, user and messages for pages; API paths skip them. API views are csrf_exempt, as
    # DRF's are (tests/hub/test_csrf_api.py): they use no cookie a token could protect.
    "hub.http.middleware.SesionSoloPaginas",
    # Django's CommonMiddleware; under DEBUG a POST without its final slash is redirected as in
    # production instead of raising (hub/http/paginas_error.py, with the branded pages under DEBUG).
    "hub.http.paginas_error.ComunComoEnProduccion",
    "django.middleware.csrf.CsrfViewMiddleware",
    "hub.http.middleware.AutenticacionSoloPaginas",
    "hub.http.middleware.MensajesSoloPaginas",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # (A NUL in an admin query is the admin site's own guard: hub.administracion.sitio.admin_view.)
]

ROOT_URLCONF = "hub.urls"
WSGI_APPLICATION = "hub.wsgi.application"
AUTH_USER_MODEL = "cuentas.User"
LOGIN_URL = "cuentas:login"
LOGIN_REDIRECT_URL = "inicio"  # the home: the person's tasks come first
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
                "hub.http.seguridad.nonce",
            ],
            # One date style on every staff page: |fecha, |fecha_hora, |vencimiento.
            "builtins": ["hub.templatetags.fechas"],
        },
    }
]

VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'hub.sqlite3'}")}
DATABASES["default"]["CONN_MAX_AGE"] = env.entero("HUB_CONN_MAX_AGE", 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (runserver) and processes write: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The inbox's partial indexes INCLUDE the task id so PostgreSQL answers from the index
    # alone (solicitudes.Tarea). SQLite has no INCLUDE, and needs none: every SQLite index
    # already carries the rowid, which the integer id is. Django builds the index without it
    # and warns (models.W040) at every start, as if something broke; on SQLite alone, silenced.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
elif env.bool("HUB_SENTENCIAS_PREPARADAS", default=True):
    # Off (false) behind a pooler in transaction mode that does not keep prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update(SENTENCIAS_PREPARADAS)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# Tests running side by side on one Redis (or one machine) each get their own prefix and folder.
_PRUEBA = os.environ.get("PYTEST_XDIST_WORKER", "")
_CACHE_PREFIX = env.str("HUB_CACHE_PREFIJO", default="hub") + _PRUEBA
# After a failure the cache is left alone this many seconds: a hung Redis would otherwise make
# every request wait its own timeout (then answered as for a dead cache: docs/contrato.md).
HUB_CACHE_PAUSA = env.entero("HUB_CACHE_PAUSA", 5)
# Each process rereads the database's cache generation and identity at most this often (one small
# query): a saved change is served everywhere within 10 s whatever the cache did
# (hub.cache.coherencia).
HUB_COHERENCIA_SEGUNDOS = env.entero("HUB_COHERENCIA_SEGUNDOS", 3)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheRedis",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": _CACHE_PREFIX,
            # Short timeouts: a dead cache must turn into a clear answer fast, not a hang.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    # Without Redis, a store on disk that every process of this host shares (several gunicorn
    # workers count the same limits and see the same brand and settings); not several hosts.
    CACHES = {
        "default": {
            "BACKEND": "hub.cache.almacenes.CacheArchivo",
            "LOCATION": str(
                Path(env.str("HUB_CACHE_DIR", default=str(VAR_DIR / "cache"))) / (_PRUEBA or "hub")
            ),
            "KEY_PREFIX": _CACHE_PREFIX,
        }
    }

# Every rate limit of the interface is counted by django-ratelimit (hub/http/limites.py wraps it):
# the decision to fail open or closed when the cache is down is ours, per limit (docs/contrato.md).
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = False

SESSION_ENGINE = "django.contrib.sessions.backends.db"
# Per-account sign-in protection (OWASP "device cookies"; docs/decisiones/cuentas.md):
# after HUB_INGRESO_TECHO_CUENTA failed sign-ins for one account from browsers that never signed
# in to it, within HUB_INGRESO_VENTANA_CUENTA seconds, only browsers that did get in until the
# window ends. Such a browser keeps its own budget of failures, HUB_INGRESO_FALLOS_DISPOSITIVO
# per window, and its device cookie lasts HUB_INGRESO_DISPOSITIVO_DIAS from its last sign-in.
HUB_INGRESO_TECHO_CUENTA = env.entero("HUB_INGRESO_TECHO_CUENTA", 50, minimo=1)
HUB_INGRESO_VENTANA_CUENTA = env.entero("HUB_INGRESO_VENTANA_CUENTA", 3600, minimo=60)
HUB_INGRESO_FALLOS_DISPOSITIVO = env.entero("HUB_INGRESO_FALLOS_DISPOSITIVO", 10, minimo=1)
HUB_INGRESO_DISPOSITIVO_DIAS = env.entero("HUB_INGRESO_DISPOSITIVO_DIAS", 180, minimo=1)
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
# The admin writes dates as the staff pages do (hub.templatetags.fechas): 27/11/2026 15:35.
FORMAT_MODULE_PATH = ["hub.formatos"]
TIME_ZONE = "America/Bogota"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_ROOT = Path(env.str("HUB_MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "/media/"

# Admin uploads (brand images) are bounded by the brand's own size limit.
DATA_UPLOAD_MAX_MEMORY_SIZE = HUB_MAX_CUERPO
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["hub.http.respuestas.RenderizadorJSON"],
    "DEFAULT_PARSER_CLASSES": ["hub.http.parsers.ParserJSON"],
    "EXCEPTION_HANDLER": "hub.http.respuestas.manejar_excepcion_drf",
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
    "POSTPROCESSING_HOOKS": [
        "hub.openapi.generador.sin_marcas_internas",
        "hub.openapi.componentes.notificacion_sin_id",
    ],
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

# The hub's own OAuth authorization server for assistants (MCP authorization, issue 25):
# django-oauth-toolkit, configured (apps/autorizacion; docs/decisiones/oauth.md). Its client
# model is the hub's, swapped in before the first OAuth migration. The issuer is HUB_URL_PUBLICA.
OAUTH2_PROVIDER_APPLICATION_MODEL = "autorizacion.Aplicacion"
OAUTH2_PROVIDER = {
    "SCOPES": {
        "asistente:leer": "Consultar con sus permisos: las herramientas de lectura del asistente.",
        "asistente:escribir": (
            "Comentar solicitudes y radicar en la mesa de ayuda en su nombre, siempre con un paso "
            "de confirmación."
        ),
        # The areas the person chooses at consent (apps.mcp.areas); a token naming none (issued
        # before they existed) reaches every area.
        "asistente:solicitudes": (
            "Solicitudes: estado, búsqueda, tareas, comentarios y mesa de ayuda."
        ),
        "asistente:presupuesto": "Presupuesto: CDP, RP, ejecución, reportes y resúmenes.",
        "asistente:calidad": "Documentos de calidad vigentes.",
    },
    # A client that names no scope gets reading only; writing is always asked for and shown.
    "DEFAULT_SCOPES": ["asistente:leer"],
    "READ_SCOPE": "asistente:leer",
    "WRITE_SCOPE": "asistente:escribir",
    # Authorization code with PKCE S256 for every client (apps.autorizacion.servidor refuses
    # `plain` before consent; these gates refuse it again where the library looks).
    "OAUTH2_SERVER_CLASS": "apps.autorizacion.servidor.Servidor",
    "OAUTH2_VALIDATOR_CLASS": "apps.autorizacion.servidor.Validador",
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    # Tokens stored only as SHA-256 digests; our own prefixes (apps.autorizacion.tokens).
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "ACCESS_TOKEN_GENERATOR": "apps.autorizacion.tokens.generar_acceso",
    "REFRESH_TOKEN_GENERATOR": "apps.autorizacion.tokens.generar_refresco",
    # Rotated on every use; an old one presented again revokes its whole family.
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    # Lifetimes are the administrator's (AjustesAsistente), read by apps.autorizacion.servidor:
    # these are only the library's fallbacks. No fixed refresh expiry: ours is checked instead.
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "REFRESH_TOKEN_EXPIRE_SECONDS": None,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    # Redirect URIs: https; http only to a loopback address on any port (RFC 8252), which the
    # hub's client model adds (Aplicacion.get_allowed_schemes, apps.autorizacion.redirecciones):
    # the library would allow http to any host.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "REQUEST_APPROVAL_PROMPT": "force",
    # RFC 7591 registration, open (policy: apps.autorizacion.registro and the admin's switch).
    "DCR_ENABLED": True,
    "DCR_REGISTRATION_PERMISSION_CLASSES": ("apps.autorizacion.registro.RegistroPermitido",),
    # Client ID metadata documents: behind the administrator's switch and host list.
    "CIMD_ENABLED": True,
    "CIMD_REGISTRATION_PERMISSION_CLASSES": ("apps.autorizacion.registro.CimdPermitido",),
    # RFC 8414 metadata (apps.autorizacion.vistas builds the document from these).
    "OIDC_ISS_ENDPOINT": HUB_URL_PUBLICA,
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "none",
        "client_secret_post",
        "client_secret_basic",
    ],
    "APPLICATION_ADMIN_CLASS": "apps.autorizacion.admin_clientes.AplicacionAdmin",
}

# The brand endpoints must not be callable from other sites' browsers: no CORS origin allowed.
CORS_ALLOWED_ORIGINS = env.list("HUB_CORS_ORIGENES", default=[])
CORS_URLS_REGEX = r"^/notificaciones/api/public/.*$"
# Only the contact endpoint opens CORS (per configured site); browsers may read the limit headers.
CORS_EXPOSE_HEADERS = [
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Limit-Dia",
    "X-RateLimit-Remaining-Dia",
]

# Mail: EMAIL_URL (e.g. smtp+tls://usuario:contraseña@smtp.entidad.gov.co:587) or the EMAIL_*
# variables one by one. Without either, nothing is sent: hub.operacion.correo logs one line per
# message,
# without addresses, subject or text (contact messages carry personal data); production refuses
# to start so. The console backend, which printed messages whole to the log, is refused always.
CORREO_POR_DEFECTO = "hub.operacion.correo.LogSinDatos"
CORREO_DE_CONSOLA = "django.core.mail.backends.console.EmailBackend"
# Backends that never deliver: they log, keep in memory, write files or drop the message.
CORREO_QUE_NO_ENTREGA = frozenset(
    {
        CORREO_POR_DEFECTO,
        CORREO_DE_CONSOLA,
        "django.core.mail.backends.locmem.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
    }
)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="hub@localhost")
_CORREO_CONFIGURADO = bool(env.str("EMAIL_URL", default="") or env.str("EMAIL_BACKEND", default=""))
if env.str("EMAIL_URL", default=""):
    # EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, ... from the one address.
    try:
        globals().update(env.email_url("EMAIL_URL"))
    except (ImproperlyConfigured, ValueError):
        # Not the address itself in the message: it carries the mail password.
        raise ImproperlyConfigured(
            "EMAIL_URL no es válida: use smtp://, smtp+tls:// o smtp+ssl:// con "
            "usuario:contraseña@servidor:puerto (por ejemplo smtp+tls://hub:contraseña@smtp.entidad.gov.co:587)."
        ) from None
else:
    EMAIL_BACKEND = env.str("EMAIL_BACKEND", default=CORREO_POR_DEFECTO)
    # The file backend (development): each message whole, in a file, never in the log.
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "correo"))
    EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
    EMAIL_PORT = env.entero("EMAIL_PORT", 25, minimo=1)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
# Mail leaves after commit, inside the request: a slow server must not hold the answer long.
EMAIL_TIMEOUT = env.entero("EMAIL_TIMEOUT", 10, minimo=1)
if HUB_PRODUCCION and EMAIL_BACKEND in CORREO_QUE_NO_ENTREGA:
    # Without it contact messages and notices are never delivered, and nobody notices.
    causa = (
        f"EMAIL_BACKEND={EMAIL_BACKEND} no envía nada"
        if _CORREO_CONFIGURADO
        else "no hay correo configurado"
    )
    raise ImproperlyConfigured(
        f"HUB_PRODUCCION necesita un servidor de correo que entregue: {causa}. Defina EMAIL_URL "
        "(por ejemplo smtp+tls://usuario:contraseña@smtp.entidad.gov.co:587) o EMAIL_BACKEND con "
        "EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD y EMAIL_USE_TLS."
    )
if EMAIL_BACKEND == CORREO_DE_CONSOLA:
    raise ImproperlyConfigured(
        "El backend de correo de consola escribe cada correo en el registro, con sus datos "
        "personales (nombre, dirección y texto de los mensajes de contacto) y los enlaces para "
        "cambiar la contraseña. Quítelo: sin correo configurado el hub solo registra una línea "
        "sin datos por correo. Para leer los correos en desarrollo use el backend de archivos "
        "(EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend, en var/correo/)."
    )
# The sign-in pages' mail (password reset, lock notices) is sent by a thread of each process after
# the answer, so neither the answer's time nor the worker's next request tells a registered address
# from an unknown one (apps/cuentas/correo.py). Off: sent by the worker as it closes the answer.
HUB_CORREO_EN_SEGUNDO_PLANO = env.bool("HUB_CORREO_EN_SEGUNDO_PLANO", default=True)

# json: one object per line for a log shipper (default under HUB_PRODUCCION); texto: for people.
HUB_LOG_FORMATO = env.str("HUB_LOG_FORMATO", default="json" if HUB_PRODUCCION else "texto").strip()
if HUB_LOG_FORMATO not in {"json", "texto"}:
    raise ImproperlyConfigured(f"HUB_LOG_FORMATO={HUB_LOG_FORMATO!r}: use json o texto.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "hub.observabilidad.logs.FormatoJSON"},
        "texto": {"()": "hub.observabilidad.logs.FormatoTexto"},
    },
    # Django's own lines name the path ("Internal Server Error: <path>"): a secret segment (a
    # password-reset link's token) is hidden. On that logger only: the hub's lines already write
    # the path hidden (hub.observabilidad.logs.ruta), and a filter on the handler would format
    # every line twice.
    "filters": {"sin_secretos": {"()": "hub.observabilidad.logs.FiltroSinSecretos"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": HUB_LOG_FORMATO}},
    "root": {"handlers": ["console"], "level": env.str("HUB_LOG_LEVEL", default="INFO")},
    # django.template at DEBUG logs whole template contexts: a page that shows a secret once
    # (a new API key or token) must never reach a log, whatever HUB_LOG_LEVEL says. So do the
    # OAuth libraries at DEBUG: oauthlib writes authorization codes, access and refresh tokens,
    # django-oauth-toolkit the redirect that carries the code (their warnings still pass).
    "loggers": {
        "django.request": {"level": "ERROR", "filters": ["sin_secretos"]},
        "django.template": {"level": "INFO"},
        "oauthlib": {"level": "INFO"},
        "oauth2_provider": {"level": "INFO"},
    },
}

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = False
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# Retention in days of the tables that only grow; `manage.py mantenimiento` (daily) purges older
# rows. Audit: unset keeps everything. Contact: a year of follow-up, then the personal data goes.
# Sessions: days after their expiry (0: as soon as they expire). docs/decisiones/operacion.md.
HUB_RETENCION_AUDITORIA_DIAS = (
    env.entero("HUB_RETENCION_AUDITORIA_DIAS", 0, minimo=1)
    if env.str("HUB_RETENCION_AUDITORIA_DIAS", default="")
    else None
)
HUB_RETENCION_CONTACTO_DIAS = env.entero("HUB_RETENCION_CONTACTO_DIAS", 365, minimo=1)
HUB_RETENCION_SESIONES_DIAS = env.entero("HUB_RETENCION_SESIONES_DIAS", 0)

if HUB_PRODUCCION:
    SECURE_SSL_REDIRECT = env.bool("HUB_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.entero("HUB_HSTS_SEGUNDOS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
