"""diagnostico_servicio (administration): database, cache, versions and latencies of this host."""

from __future__ import annotations

import logging
import platform
import time
import uuid
from typing import Any

import django
from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta, registro
from hub.http.serializadores import Estricto

logger = logging.getLogger(__name__)

PERMISO_ADMINISTRAR = "mcp.asistente.administrar"


class ArgsDiagnostico(Estricto):
    pass


_TEXTO = {"type": "string"}
_MS = {"type": ["number", "null"], "minimum": 0}
SALIDA_DIAGNOSTICO: dict[str, Any] = {
    "type": "object",
    "properties": {
        "base_datos": {
            "type": "object",
            "properties": {
                "motor": _TEXTO,
                "version": _TEXTO,
                "ok": {"type": "boolean"},
                "latencia_ms": _MS,
                "migraciones_pendientes": {"type": ["integer", "null"], "minimum": 0},
                "error": {"type": ["string", "null"]},
            },
            "required": [
                "motor",
                "version",
                "ok",
                "latencia_ms",
                "migraciones_pendientes",
                "error",
            ],
            "additionalProperties": False,
        },
        "cache": {
            "type": "object",
            "properties": {
                "backend": _TEXTO,
                "ok": {"type": "boolean"},
                "latencia_ms": _MS,
                "error": {"type": ["string", "null"]},
            },
            "required": ["backend", "ok", "latencia_ms", "error"],
            "additionalProperties": False,
        },
        "versiones": {
            "type": "object",
            "properties": {"python": _TEXTO, "django": _TEXTO, "hub": _TEXTO},
            "required": ["python", "django", "hub"],
            "additionalProperties": False,
        },
        "herramientas_registradas": {"type": "integer", "minimum": 0},
        "escrituras_habilitadas": {"type": "boolean"},
        "zona_horaria": _TEXTO,
        "hora_servidor": _TEXTO,
    },
    "required": [
        "base_datos",
        "cache",
        "versiones",
        "herramientas_registradas",
        "escrituras_habilitadas",
        "zona_horaria",
        "hora_servidor",
    ],
    "additionalProperties": False,
}


def _ms(inicio: float) -> float:
    return round((time.perf_counter() - inicio) * 1000, 3)


def _fallo(exc: Exception) -> str:
    # Only the kind of failure: messages of drivers may carry host names or credentials.
    return f"{type(exc).__name__}: no disponible"


def _base_datos() -> dict[str, Any]:
    version = ".".join(str(p) for p in connection.get_database_version())
    datos: dict[str, Any] = {
        "motor": connection.vendor,
        "version": version,
        "ok": True,
        "latencia_ms": None,
        "migraciones_pendientes": None,
        "error": None,
    }
    try:
        # A savepoint: a failure here must not break the transaction the audit row needs.
        with transaction.atomic():
            inicio = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            datos["latencia_ms"] = _ms(inicio)
            ejecutor = MigrationExecutor(connection)
            plan = ejecutor.migration_plan(ejecutor.loader.graph.leaf_nodes())
            datos["migraciones_pendientes"] = len(plan)
    except DatabaseError as exc:
        logger.warning("diagnóstico: la base de datos falló", exc_info=True)
        datos.update(ok=False, error=_fallo(exc))
    return datos


def _cache() -> dict[str, Any]:
    alias = "default"
    backend = settings.CACHES[alias]["BACKEND"].rsplit(".", 1)[-1]
    datos: dict[str, Any] = {"backend": backend, "ok": False, "latencia_ms": None, "error": None}
    clave = f"mcp:diagnostico:{uuid.uuid4().hex}"
    try:
        cache = caches[alias]
        inicio = time.perf_counter()
        cache.set(clave, "ok", timeout=30)
        leido = cache.get(clave)
        datos["latencia_ms"] = _ms(inicio)
        cache.delete(clave)
        if leido == "ok":
            datos["ok"] = True
        else:
            datos["error"] = "La caché no devolvió el valor recién guardado."
    except Exception as exc:  # any backend failure is a finding, not a crash
        logger.warning("diagnóstico: la caché falló", exc_info=True)
        datos["error"] = _fallo(exc)
    return datos


def _resumen(d: dict[str, Any]) -> str:
    bd, cache = d["base_datos"], d["cache"]
    estado_bd = f"{bd['latencia_ms']} ms" if bd["ok"] else f"FALLA ({bd['error']})"
    estado_cache = f"{cache['latencia_ms']} ms" if cache["ok"] else f"FALLA ({cache['error']})"
    pendientes = bd["migraciones_pendientes"]
    migraciones = "" if pendientes is None else f"; migraciones pendientes: {pendientes}"
    escrituras = "habilitadas" if d["escrituras_habilitadas"] else "deshabilitadas"
    return (
        f"Base de datos {bd['motor']} {bd['version']}: {estado_bd}{migraciones}. "
        f"Caché {cache['backend']}: {estado_cache}. "
        f"Versiones: hub {d['versiones']['hub']}, Django {d['versiones']['django']}, "
        f"Python {d['versiones']['python']}. "
        f"{d['herramientas_registradas']} herramientas registradas; escrituras {escrituras}."
    )


@herramienta(
    nombre="diagnostico_servicio",
    titulo="Diagnóstico del servicio",
    descripcion=(
        "Administración: estado técnico del servicio que responde — base de datos (motor, "
        "versión, latencia de SELECT 1, migraciones pendientes), caché (backend y latencia de "
        "escribir y leer), versiones de Python, Django y el hub, herramientas registradas y si "
        "las escrituras están habilitadas. No muestra datos de la organización ni secretos."
    ),
    acceso=Acceso.USUARIO,
    permisos=(PERMISO_ADMINISTRAR,),
    argumentos=ArgsDiagnostico,
    salida=SALIDA_DIAGNOSTICO,
)
def diagnostico_servicio(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    estructura = {
        "base_datos": _base_datos(),
        "cache": _cache(),
        "versiones": {
            "python": platform.python_version(),
            "django": django.get_version(),
            "hub": str(settings.HUB_VERSION),
        },
        "herramientas_registradas": len(list(registro)),
        "escrituras_habilitadas": bool(llamada.ajustes.escrituras_habilitadas),
        "zona_horaria": str(timezone.get_current_timezone()),
        "hora_servidor": timezone.localtime().isoformat(timespec="seconds"),
    }
    return Resultado(_resumen(estructura), estructura)
