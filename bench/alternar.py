"""Before and after, alternately: the same bench rows against two checkouts of the hub.

`python -m bench.alternar DEMO.json ANTES [fila ...]` starts, on the database of the environment
(DATABASE_URL, REDIS_URL, HUB_CACHE_PREFIJO; limits opened with `bench.datos abrir-limites`
first), one hub from the checkout ANTES (a git worktree of the "before"), one from this checkout
and the bare limit with its floors, each gunicorn with BENCH_WORKERS sync workers (1); then,
BENCH_RONDAS times (5), measures every row on the "before" hub and on this one in turn, and the
floor of a tool call, BENCH_DURACION seconds each (5) after BENCH_CALENTAR seconds of warm-up.
Prints one JSON line per measurement and, at the end, the median, minimum and maximum of each.
Alternating keeps a drift of the machine's speed (other people's tests) out of the comparison.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench import peticiones as p
from bench.correr import entero, wrk
from bench.servidores import PY, RAIZ, VAR, Servidor, detener, esperar

FILAS = (
    "estado_solicitud",
    "estado_cdp",
    "estado_rp",
    "mis_tareas",
    "resumen_solicitud",
    "buscar_solicitudes",
    "busqueda_global",
)


def _lanzar(nombre: str, raiz: Path, app: str, puerto: int, workers: int) -> Servidor:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    env.update(
        DJANGO_SETTINGS_MODULE="hub.settings",
        PYTHONPATH=str(raiz),
        WEB_CONCURRENCY=str(workers),
        HUB_BIND=f"127.0.0.1:{puerto}",
        HUB_LOG_LEVEL="WARNING",
    )
    args = [PY, "-m", "gunicorn", "-c", "gunicorn.conf.py", app, "--max-requests", "0"]
    args += ["--access-logfile", "/dev/null"]
    log = VAR / f"alternar-{nombre}.log"
    VAR.mkdir(parents=True, exist_ok=True)
    with log.open("w") as salida:
        proceso = subprocess.Popen(  # noqa: S603 - our own fixed command line
            args, cwd=raiz, env=env, stdout=salida, stderr=subprocess.STDOUT, start_new_session=True
        )
    servidor = Servidor(nombre, puerto, proceso, log)
    esperar(servidor)
    return servidor


def _entorno(peticion: p.Peticion) -> dict[str, str]:
    return {
        **peticion.entorno(),
        "BENCH_N": "1",
        "BENCH_ESPERADO": str(peticion.esperado),
        "BENCH_CONTIENE": peticion.contiene or "",
    }


def main(argv: list[str]) -> None:
    demo = {"cookie": "", **json.loads(Path(argv[0]).read_text())}  # no page rows here
    antes = Path(argv[1]).resolve()
    filas = argv[2:] or list(FILAS)
    rondas = entero("BENCH_RONDAS", 5)
    segundos = entero("BENCH_DURACION", 5)
    calentar = int(os.environ.get("BENCH_CALENTAR", "1"))
    conexiones = entero("BENCH_CONEXIONES", 4)
    workers = entero("BENCH_WORKERS", 1)
    puerto = entero("BENCH_PUERTO", 8300)
    lista = {x.nombre: x for x in p.todas(demo, "", "")}
    servidores: list[Servidor] = []
    medidas: dict[str, list[float]] = {}
    try:
        servidores = [
            _lanzar("antes", antes, "hub.wsgi", puerto, workers),
            _lanzar("despues", RAIZ, "hub.wsgi", puerto + 2, workers),
            _lanzar("suelo", RAIZ, "bench.limite.wsgi", puerto + 1, workers),
        ]
        antes_s, despues_s, suelo_s = servidores
        for ronda in range(1, rondas + 1):
            orden = [(suelo_s, p.SUELO_HERRAMIENTA)]
            for fila in filas:
                orden += [(antes_s, fila), (despues_s, fila)]
            for servidor, fila in orden:
                peticion = lista[fila]
                entorno = _entorno(peticion)
                if calentar:
                    wrk(servidor.url, entorno, conexiones, calentar)
                r = wrk(servidor.url, entorno, conexiones, segundos)
                clave = fila if servidor is suelo_s else f"{fila}@{servidor.nombre}"
                medidas.setdefault(clave, []).append(r["rps"])
                print(json.dumps({"ronda": ronda, "fila": clave, **r}), flush=True)
    finally:
        detener(servidores)
    print("\nfila | mediana req/s | mín | máx | n")
    for clave, valores in medidas.items():
        print(
            f"{clave} | {statistics.median(valores):.1f} | {min(valores):.1f} | "
            f"{max(valores):.1f} | {len(valores)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
