"""Gunicorn settings for production: `gunicorn -c gunicorn.conf.py hub.wsgi`.

Everything that varies per host comes from the environment; the rest is fixed here on purpose.
"""

from __future__ import annotations

import multiprocessing
import os

from gunicorn.glogging import Logger

from hub.http.ip import redes_confiables
from hub.observabilidad import logs, metricas_carpeta


def _entero(nombre: str, defecto: int) -> int:
    """A positive whole number from the environment; a typo stops the start with a clear message."""
    crudo = os.environ.get(nombre, "").strip()
    if not crudo:
        return defecto
    try:
        valor = int(crudo)
    except ValueError:
        raise SystemExit(f"{nombre}={crudo!r} no es un número entero.") from None
    if valor < 1:
        raise SystemExit(f"{nombre}={valor} debe ser al menos 1.")
    return valor


def _direcciones() -> list[str]:
    """HUB_BIND (comma-separated) wins; else 0.0.0.0:$PORT; else 0.0.0.0:8000."""
    hub_bind = os.environ.get("HUB_BIND", "").strip()
    if hub_bind:
        return [d.strip() for d in hub_bind.split(",") if d.strip()]
    return [f"0.0.0.0:{_entero('PORT', 8000)}"]


bind = _direcciones()
workers = _entero("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)
# Sync workers: the views are short and blocking (ORM), and the MCP endpoint is stateless.
worker_class = "sync"
timeout = 30
graceful_timeout = 30
keepalive = 5

# The application is loaded once, in the master, and every worker is forked from it
# (hub/operacion/arranque.py: nothing that must not be shared stays open, the start-up objects
# frozen).
# A recycled worker then starts in milliseconds instead of importing Django again (about 0.4 s
# under load, when one worker's restart stalled the requests queued behind it: issue 23, item 8).
# The price: a HUP no longer reloads the code; a new version needs a restart (docs/despliegue.md).
preload_app = True

# Recycle workers now and then (bounded memory growth); the jitter keeps them from all
# restarting at once. `make bench` shows a worker's memory flat over 20,000 requests, and its
# recycling row what a restart costs the requests behind it.
max_requests = _entero("GUNICORN_MAX_REQUESTS", 20000)
max_requests_jitter = max_requests // 10

# Metrics (hub/observabilidad/metricas.py): prometheus-client's multiprocess mode, every worker
# writing its own
# files in one folder that a scrape adds up. gunicorn sets the variable before it loads the
# application (raw_env), so the master never writes it into its own environment by hand.
_METRICAS, _METRICAS_PROPIA = metricas_carpeta.elegir(os.getpid())
raw_env = [f"{metricas_carpeta.VARIABLE}={_METRICAS}"]


def on_starting(server) -> None:
    """Before the first fork: values of an earlier run must not add up with this one's."""
    metricas_carpeta.vaciar(_METRICAS)


def pre_fork(server, worker) -> None:
    """In the master, before each fork (recycles included): nothing open to hand down."""
    if not server.cfg.preload_app:
        return  # nothing loaded in the master (and Django not even configured there)
    from hub.operacion import arranque

    arranque.soltar_conexiones()


def worker_exit(server, worker) -> None:
    """In the worker, last: out without the interpreter's teardown (hub/operacion/arranque.py)."""
    from hub.operacion import arranque

    arranque.salir_ya(server, worker)


def child_exit(server, worker) -> None:
    """A worker ended: its counts folded into the archive files (the folder stays bounded)."""
    metricas_carpeta.archivar(_METRICAS, worker.pid)


def on_exit(server) -> None:
    """The master stops: a metrics folder it made for itself goes with it."""
    if _METRICAS_PROPIA:
        metricas_carpeta.quitar(_METRICAS)


# Request line and headers: gunicorn's hard limits, stated so nobody raises them by accident.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# Access log on stdout. %(U)s is the path WITHOUT the query string, and the Referer is left out
# (it is a whole URL, query included): nothing that could carry a secret reaches the log.
accesslog = "-"
errorlog = "-"
access_log_format = (
    '%(h)s "%({x-forwarded-for}i)s" %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'
)


class RegistroSinSecretos(Logger):
    """gunicorn's logger, with the path's secret segments hidden (a password-reset link's token,
    a credential pasted into a path), as the hub's own access line does
    (hub.observabilidad.logs.ruta)."""

    def atoms(self, resp, req, environ, request_time) -> dict:
        atomos = super().atoms(resp, req, environ, request_time)
        for nombre in ("U", "r"):
            if atomos.get(nombre):
                atomos[nombre] = logs.sin_secretos(atomos[nombre])
        return atomos


logger_class = RegistroSinSecretos


def _formato_logs() -> str:
    """The same choice as hub/settings.py: HUB_LOG_FORMATO, else json under HUB_PRODUCCION."""
    formato = os.environ.get("HUB_LOG_FORMATO", "").strip()
    if formato:
        return formato
    produccion = os.environ.get("HUB_PRODUCCION", "").strip().lower()
    return "json" if produccion in {"1", "true", "yes", "on", "si", "sí"} else "texto"


if _formato_logs() == "json":
    # The hub's middleware already writes one JSON access line per request (with its request id):
    # gunicorn's text line would be a duplicate in another format. Gunicorn's own messages
    # (start, workers, timeouts) go out as JSON on stderr like the application's.
    accesslog = None
    logconfig_dict = {
        "formatters": {"json": {"()": "hub.observabilidad.logs.FormatoJSON"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            },
        },
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }


def _proxies() -> str:
    """The proxies that may set X-Forwarded-Proto for gunicorn: HUB_PROXIES_CONFIABLES, the same
    list the hub reads X-Forwarded-For from (hub/http/ip.py), so that the two never disagree."""
    try:
        redes = redes_confiables(os.environ.get("HUB_PROXIES_CONFIABLES", ""))
    except ValueError as exc:
        raise SystemExit(f"HUB_PROXIES_CONFIABLES: {exc}") from None
    # gunicorn's own variable, from older instructions: accepted only when it says the same.
    propia = os.environ.get("FORWARDED_ALLOW_IPS", "").strip()
    if propia:
        try:
            iguales = set(redes_confiables(propia)) == set(redes)
        except ValueError:
            iguales = False
        if not iguales:
            raise SystemExit(
                f"FORWARDED_ALLOW_IPS={propia!r} no coincide con HUB_PROXIES_CONFIABLES: quítela; "
                "gunicorn confía en los mismos proxies que el hub (HUB_PROXIES_CONFIABLES)."
            )
    return ",".join(str(red) for red in redes)


forwarded_allow_ips = _proxies()
if not forwarded_allow_ips:
    # No proxy at all. gunicorn trusts a peer without an address (a unix socket's) whatever
    # forwarded_allow_ips says; the hub does not (hub/http/ip.py): its X-Forwarded-Proto and its
    # SCRIPT_NAME / PATH_INFO headers are then believed by nobody.
    secure_scheme_headers: dict[str, str] = {}
    forwarder_headers = ""
