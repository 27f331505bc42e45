"""What separates ping, brand and verification from the DRF floor, layer by layer, in the process.

The hub's WSGI handler is built again with only the innermost part of MIDDLEWARE (from index k
to the end), for every k; each request is replayed through each of them, interleaved round by
round, and timed (median CPU and wall time per request, real PostgreSQL and Redis). The
difference between k and k+1 is what the middleware at k adds around the ones inside it (below
LimiteGlobalMiddleware a view counts its own limits and reads without the one-round-trip
pre-read, so those rows are not the view's cost inside the hub). The floor's DRF view
(bench/limite/suelo.py) is timed in the same process, through a WSGI handler of its own (its
URLconf, no hub middleware).
Not part of `make bench`: run it by hand against a bench database whose limits are open
(`python -m bench.datos abrir-limites`), with the bench's environment:

    python -m bench.capas var/bench/demo-<suffix>.json [repeticiones]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _entorno(metodo: str, ruta: str, cabeceras: dict[str, str]) -> dict[str, Any]:
    from django.test import RequestFactory

    extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in cabeceras.items()}
    # The WSGI environ of a RequestFactory request (its public API), fresh for every call.
    return RequestFactory().generic(metodo, ruta, REMOTE_ADDR="127.0.0.1", **extra).environ


def _medir(llamadas: dict[str, Any], repeticiones: int) -> dict[str, dict[str, float]]:
    """Median CPU and wall ms of each call, the calls interleaved round by round (A/B/C...), so
    that a burst of load on this shared machine falls on all of them alike."""
    cpu: dict[str, list[float]] = {k: [] for k in llamadas}
    pared: dict[str, list[float]] = {k: [] for k in llamadas}
    for ronda in range(repeticiones + repeticiones // 5):
        for clave, llamar in llamadas.items():
            c0, p0 = time.process_time(), time.perf_counter()
            llamar()
            if ronda >= repeticiones // 5:  # the first fifth warms up, discarded
                cpu[clave].append(time.process_time() - c0)
                pared[clave].append(time.perf_counter() - p0)
    return {
        k: {
            "cpu_ms": round(statistics.median(cpu[k]) * 1000, 3),
            "pared_ms": round(statistics.median(pared[k]) * 1000, 3),
        }
        for k in llamadas
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import override_settings

    from bench import peticiones as p
    from hub.wsgi import application  # the hub's start-up: registries, frozen objects

    demo = json.loads(Path(argv[0]).read_text())
    repeticiones = int(argv[1]) if len(argv) > 1 else 500
    estados: dict[str, set[int]] = {}

    def pedir(app: Any, metodo: str, ruta: str, cabeceras: dict[str, str], clave: str = "") -> Any:
        def responder(status: str, headers: Any) -> None:
            estados.setdefault(clave, set()).add(int(status.split()[0]))

        def llamar() -> None:
            cuerpo = app(_entorno(metodo, ruta, cabeceras), responder)
            b"".join(cuerpo)
            if hasattr(cuerpo, "close"):
                cuerpo.close()

        return llamar

    etag_marca = dict(_cabeceras(application, p.RUTA_MARCA))["ETag"]
    peticiones = {
        "ping": ("/solicitudes/api/v1/ping", {}, 200),
        "marca_304": (p.RUTA_MARCA, {"If-None-Match": etag_marca}, 304),
        "marca_200": (p.RUTA_MARCA, {}, 200),
        "firma": (f"/presupuesto/api/v1/firmas/verificar/{demo['firmas']['valida']}", {}, 200),
    }
    with override_settings(MIDDLEWARE=["bench.capas.urlconf_del_suelo"]):
        suelo = WSGIHandler()
    llamadas: dict[str, Any] = {}
    esperados = {"suelo_drf": 200}
    middleware = list(settings.MIDDLEWARE)
    for k in range(len(middleware) + 1):
        with override_settings(MIDDLEWARE=middleware[k:]):
            app = WSGIHandler()
        for nombre, (ruta, cabeceras, esperado) in peticiones.items():
            llamadas[f"{k}:{nombre}"] = pedir(app, "GET", ruta, cabeceras, f"{k}:{nombre}")
            esperados[f"{k}:{nombre}"] = esperado
    llamadas["suelo_drf"] = pedir(suelo, "GET", "/suelo-drf", {}, "suelo_drf")
    medidas = _medir(llamadas, repeticiones)
    malos = {k: sorted(v) for k, v in estados.items() if v - {esperados[k]}}
    resultado: dict[str, Any] = {
        "repeticiones": repeticiones,
        "estados_inesperados": malos,
        "suelo_drf": medidas["suelo_drf"],
        "capas": [
            {
                "desde": middleware[k] if k < len(middleware) else "(ninguno)",
                **{n: medidas[f"{k}:{n}"] for n in peticiones},
            }
            for k in range(len(middleware) + 1)
        ],
    }
    print(json.dumps(resultado, ensure_ascii=False, indent=1))


def urlconf_del_suelo(get_response: Any) -> Any:
    """Middleware: the floor's URLconf (bench/limite/urls.py) inside the hub's process."""

    def middleware(request: Any) -> Any:
        request.urlconf = "bench.limite.urls"
        return get_response(request)

    return middleware


def _cabeceras(app: Any, ruta: str) -> list[tuple[str, str]]:
    guardadas: list[tuple[str, str]] = []

    def responder(status: str, headers: Any) -> None:
        guardadas.extend(headers)

    b"".join(app(_entorno("GET", ruta, {}), responder))
    return guardadas


if __name__ == "__main__":
    main(sys.argv[1:])
