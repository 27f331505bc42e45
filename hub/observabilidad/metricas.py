"""Metrics for operators (Prometheus): what is counted, and the one-line hooks that count it.

prometheus-client, in its multiprocess mode when PROMETHEUS_MULTIPROC_DIR is set (gunicorn.conf.py
sets it): each worker writes its values to its own memory-mapped files in that folder, and a
scrape adds up every file, so the answer is the same whichever worker serves it. Without the
variable (runserver, tests) the values live in the process.

Every label takes a bounded set of values: the URL pattern's route (never the raw path), the
method among the known ones, the status; the tool's registered name and its result code; the
limit's group; nothing a client can shape. The endpoint is hub/observabilidad/metricas_vista.py.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from prometheus_client import Counter, Histogram

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # A worker may be the first process to write there (e.g. a worker started by hand).
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], mode=0o700, exist_ok=True)

DESCONOCIDA = "desconocida"  # a tools/call naming no registered tool
SIN_RUTA = "sin_ruta"  # answered before URL routing (413, global 429) or no pattern matched
METODOS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Seconds: the warm public endpoints answer in a few ms, the searches in tens, a report in seconds.
CUBETAS = (0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

peticiones = Counter("hub_peticiones", "Peticiones HTTP atendidas.", ["ruta", "metodo", "estado"])
duracion = Histogram(
    "hub_peticion_segundos", "Duración de cada petición HTTP, por ruta.", ["ruta"], buckets=CUBETAS
)
herramientas = Counter(
    "hub_asistente_llamadas",
    "Llamadas tools/call del asistente, por herramienta y resultado (ok o el código de error).",
    ["herramienta", "resultado"],
)
herramientas_duracion = Histogram(
    "hub_asistente_llamada_segundos",
    "Duración de cada tools/call, por herramienta.",
    ["herramienta"],
    buckets=CUBETAS,
)
rechazos = Counter(
    "hub_limite_rechazos",
    "Cuentas que encontraron su límite de uso agotado (la petición se rechaza), por límite.",
    ["limite"],
)
cache_fallos = Counter(
    "hub_cache_fallos", "Fallos de conexión o tiempo agotado con la caché compartida.", ["tipo"]
)
cache_pausas = Counter(
    "hub_cache_pausas", "Pausas de la caché: tras un fallo se omite HUB_CACHE_PAUSA segundos."
)
cache_omitidas = Counter(
    "hub_cache_omitidas", "Operaciones de caché no intentadas por estar en pausa."
)
auditoria_fallos = Counter(
    "hub_auditoria_fallos",
    "Filas de auditoría del asistente que no se pudieron escribir (la llamada se revierte).",
)

F = TypeVar("F", bound=Callable[..., Any])
_hijos_peticion: dict[tuple[str, str, int], Any] = {}
_hijos_duracion: dict[str, Any] = {}


def peticion(request: Any, estado: int, segundos: float) -> None:
    """One HTTP answer: counted by route, method and status; its duration by route."""
    coincidencia = getattr(request, "resolver_match", None)
    ruta = coincidencia.route if coincidencia is not None else SIN_RUTA
    metodo = request.method if request.method in METODOS else "otro"
    clave = (ruta, metodo, estado)
    hijo = _hijos_peticion.get(clave)
    if hijo is None:
        hijo = _hijos_peticion[clave] = peticiones.labels(ruta, metodo, str(estado))
    hijo.inc()
    reloj = _hijos_duracion.get(ruta)
    if reloj is None:
        reloj = _hijos_duracion[ruta] = duracion.labels(ruta)
    reloj.observe(segundos)


def herramienta(nombre: str, resultado: str, segundos: float | None = None) -> None:
    """One audited tools/call: `nombre` is a registered tool's name or "" (an unknown name is
    never a label: anyone can send one), `resultado` "ok" or the error code; its duration."""
    herramientas.labels(nombre or DESCONOCIDA, resultado).inc()
    if segundos is not None:
        herramientas_duracion.labels(nombre or DESCONOCIDA).observe(segundos)


def rechazos_de_limites(contar: F) -> F:
    """Decorator of hub.http.limites.contar: a count that finds its limit spent is a refusal of that
    limit (its group, a name written in the code). Past the limit after counting this request,
    or, for a look that does not count (incrementar=False), already at it."""

    @wraps(contar)
    def envuelta(*args: Any, **kwargs: Any) -> Any:
        uso = contar(*args, **kwargs)
        tope = uso.limite if kwargs.get("incrementar", True) else uso.limite - 1
        if uso.usados > tope:
            rechazos.labels(kwargs["grupo"]).inc()
        return uso

    return envuelta  # type: ignore[return-value]


def fallo_cache(error: BaseException, *, pausa: bool) -> None:
    """The shared cache failed (its exception class); `pausa`: a new pause starts."""
    cache_fallos.labels(type(error).__name__).inc()
    if pausa:
        cache_pausas.inc()


def omitida_cache() -> None:
    """A cache operation skipped because the cache is paused."""
    cache_omitidas.inc()


def fallos_de_auditoria(funcion: F) -> F:
    """Decorator: an exception out of the audit write is counted, then raised as before."""

    @wraps(funcion)
    def envuelta(*args: Any, **kwargs: Any) -> Any:
        try:
            return funcion(*args, **kwargs)
        except Exception:
            auditoria_fallos.inc()
            raise

    return envuelta  # type: ignore[return-value]


class MetricasMiddleware:
    """The outermost middleware: every answer counted and timed, by its URL pattern's route."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        inicio = time.perf_counter()
        response = self.get_response(request)
        peticion(request, response.status_code, time.perf_counter() - inicio)
        return response
