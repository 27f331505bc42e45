"""Readiness for operators: database and cache round trips, in application/health+json.

Format of draft-inadarei-api-health-check: `{"status", "version", "checks": {...}}`. Only staff
signed in through the session see the details; anyone else gets `{"status": ...}`. Failures are
reported by exception class only: messages can carry hosts, users or connection strings.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_safe

from hub.cache.almacenes import describir as describir_cache

logger = logging.getLogger(__name__)

CONTENT_TYPE = "application/health+json"
# A check that answers but takes longer than this turns the status into "warn" (still HTTP 200).
LENTO_MS = 1000.0
# The probe key evaporates on its own even if the delete after the read does not reach the cache.
TTL_LLAVE_S = 30


@dataclass(frozen=True)
class Resultado:
    """The outcome of one check."""

    componente: str  # "database" | "cache"
    tipo: str  # componentType of the draft
    estado: str  # "pass" | "warn" | "fail"
    ms: float
    error: str | None = None  # exception class name, never its message
    momento: str = ""

    @property
    def nombre(self) -> str:
        """The check's name in the draft's `checks` object."""
        return f"{self.componente}:responseTime"

    def como_dict(self) -> dict[str, object]:
        """The check object of the draft."""
        d: dict[str, object] = {
            "componentType": self.tipo,
            "observedValue": self.ms,
            "observedUnit": "ms",
            "status": self.estado,
            "time": self.momento,
        }
        if self.error:
            d["output"] = self.error
        return d


def _medir(componente: str, tipo: str, prueba) -> Resultado:
    """Run `prueba()` timing it; any exception is a fail named by its class."""
    momento = timezone.now().isoformat(timespec="seconds")
    inicio = time.perf_counter()
    error: str | None = None
    try:
        prueba()
    except Exception as exc:  # a probe reports every failure, it never raises
        error = type(exc).__name__
        logger.warning("salud: %s falló (%s)", componente, error)
    ms = round((time.perf_counter() - inicio) * 1000, 3)
    estado = "fail" if error else ("warn" if ms > LENTO_MS else "pass")
    return Resultado(componente, tipo, estado, ms, error, momento)


class LecturaDistinta(Exception):
    """The cache answered, but not with the value just written."""


def _probar_base() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone()[0] != 1:
            raise LecturaDistinta


def _probar_cache() -> None:
    # A unique key per probe: concurrent probes from several hosts never read each other's value.
    llave = f"salud:{secrets.token_hex(8)}"
    valor = secrets.token_hex(8)
    cache.set(llave, valor, TTL_LLAVE_S)
    try:
        if cache.get(llave) != valor:
            raise LecturaDistinta
    finally:
        cache.delete(llave)


def comprobar_base() -> Resultado:
    """`SELECT 1` on the default database."""
    return _medir("database", "datastore", _probar_base)


def comprobar_cache() -> Resultado:
    """Set, get and delete of a unique key in the default cache."""
    return _medir("cache", "datastore", _probar_cache)


def comprobar() -> list[Resultado]:
    """Every check, in a fixed order."""
    return [comprobar_base(), comprobar_cache()]


def estado_global(resultados: list[Resultado]) -> str:
    """fail if any fails, else warn if any warns, else pass."""
    estados = {r.estado for r in resultados}
    if "fail" in estados:
        return "fail"
    return "warn" if "warn" in estados else "pass"


def cuerpo(resultados: list[Resultado], *, detalle: bool) -> dict[str, object]:
    """The health+json document; without detail, only the status."""
    estado = estado_global(resultados)
    if not detalle:
        return {"status": estado}
    checks = {r.nombre: [r.como_dict()] for r in resultados}
    cache = describir_cache()
    for check in checks.get("cache:responseTime", []):
        # Which shared cache this is, and how far it reaches (all hosts, or this host only).
        check["componentId"] = cache["tipo"]
        check["alcance"] = cache["alcance"]
        if cache.get("pausada_s"):
            check["pausada_s"] = cache["pausada_s"]
    return {
        "status": estado,
        "version": settings.HUB_VERSION.split(".")[0],
        "releaseId": settings.HUB_VERSION,
        "serviceId": "hub",
        "description": "Hub de aplicaciones",
        "checks": checks,
    }


def _es_personal(request: HttpRequest) -> bool:
    # Reading the session needs the database: if it is down the caller is treated as anonymous.
    try:
        return bool(request.user.is_authenticated and request.user.is_staff)
    except Exception:
        return False


@require_safe
def vista_salud(request: HttpRequest) -> HttpResponse:
    """GET /salud/: 200 on pass or warn, 503 on fail; never cached."""
    resultados = comprobar()
    datos = cuerpo(resultados, detalle=_es_personal(request))
    estado = 503 if datos["status"] == "fail" else 200
    respuesta = HttpResponse(
        json.dumps(datos, ensure_ascii=False), content_type=CONTENT_TYPE, status=estado
    )
    respuesta["Cache-Control"] = "no-store"
    return respuesta


# Mounted with include("hub.observabilidad.salud") so that the root URLconf needs a single line.
urlpatterns = [path("", vista_salud, name="salud")]
