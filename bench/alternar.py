"""Before and after, alternately: the same bench rows against two checkouts of the hub.

`python -m bench.alternar DEMO.json ANTES [fila ...]` starts, on the database of the environment
(DATABASE_URL, REDIS_URL, HUB_CACHE_PREFIJO; limits opened with `bench.datos abrir-limites`
first; a "before" with another schema takes BENCH_ANTES_DATABASE_URL, BENCH_ANTES_PREFIJO and
BENCH_ANTES_DEMO, its own database, cache prefix and demo output, limits opened too), one hub
from the checkout ANTES (a git worktree of the "before"), one from this checkout and the bare
limit with its floors, each gunicorn with BENCH_WORKERS sync workers (1); then,
BENCH_RONDAS times (5), measures every row on the "before" hub and on this one in turn, and the
floor of a tool call, BENCH_DURACION seconds each (5) after BENCH_CALENTAR seconds of warm-up.
Rows are the tool calls by default, or the names given (any hub row of bench/peticiones.py:
`ping`, `marca_304`, `firma`, `mcp_ping`, ...); each server's brand requests carry that server's
own ETags. Each round measures both floors first (the DRF floor, reference of the rows that are
not tool calls, and the floor of a tool call). Prints one JSON line per measurement and, at the
end, per row: req/s before and after, after/before round by round, and each side's ratio to its
floor round by round (median, minimum and maximum of the rounds).
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
from bench.correr import comprobar, entero, pedir, wrk
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


def _lanzar(
    nombre: str, raiz: Path, app: str, puerto: int, workers: int, **propio: str
) -> Servidor:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    env.update(propio)
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


def _lista(demo: dict, servidor: Servidor) -> dict[str, p.Peticion]:
    """bench/peticiones.py's requests, the brand's conditional ones with this server's ETags."""
    _, marca, _ = pedir(servidor.url + p.RUTA_MARCA)
    _, logo, _ = pedir(servidor.url + p.RUTA_LOGO)
    return {x.nombre: x for x in p.todas(demo, marca.get("ETag", ""), logo.get("ETag", ""))}


def _suelo_de(peticion: p.Peticion) -> str:
    """A tool call's floor for a tools/call row, the DRF floor for the others."""
    return p.SUELO_HERRAMIENTA if peticion.contiene == p.SIN_ERROR else "suelo_drf"


def _resumen(valores: list[float]) -> str:
    return f"{statistics.median(valores):.2f} [{min(valores):.2f}-{max(valores):.2f}]"


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
    # A "before" whose schema differs gets its own database, cache prefix and demo.
    base_antes, demos = {}, {}
    if os.environ.get("BENCH_ANTES_DATABASE_URL"):
        base_antes = {
            "DATABASE_URL": os.environ["BENCH_ANTES_DATABASE_URL"],
            "HUB_CACHE_PREFIJO": os.environ["BENCH_ANTES_PREFIJO"],
        }
        demos["antes"] = {
            "cookie": "",
            **json.loads(Path(os.environ["BENCH_ANTES_DEMO"]).read_text()),
        }
    servidores: list[Servidor] = []
    medidas: dict[str, list[float]] = {}
    try:
        servidores = [
            _lanzar("antes", antes, "hub.wsgi", puerto, workers, **base_antes),
            _lanzar("despues", RAIZ, "hub.wsgi", puerto + 2, workers),
            _lanzar("suelo", RAIZ, "bench.limite.wsgi", puerto + 1, workers),
        ]
        antes_s, despues_s, suelo_s = servidores
        listas = {s.nombre: _lista(demos.get(s.nombre, demo), s) for s in servidores}
        suelo_de = {f: _suelo_de(listas["despues"][f]) for f in filas}
        suelos = sorted(set(suelo_de.values()))
        for servidor in servidores:
            nombres = suelos if servidor is suelo_s else filas
            comprobar(
                {p.HUB: servidor, p.LIMITE: servidor}, [listas[servidor.nombre][n] for n in nombres]
            )
        for ronda in range(1, rondas + 1):
            orden = [(suelo_s, suelo) for suelo in suelos]
            for fila in filas:
                orden += [(antes_s, fila), (despues_s, fila)]
            for servidor, fila in orden:
                peticion = listas[servidor.nombre][fila]
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
    print("\nfila | suelo | después/antes | antes × suelo | después × suelo (mediana [mín-máx])")
    for fila in filas:
        a, d, s = medidas[f"{fila}@antes"], medidas[f"{fila}@despues"], medidas[suelo_de[fila]]
        pares = _resumen([y / x for x, y in zip(a, d, strict=True)])
        print(
            f"{fila} | {suelo_de[fila]} | {pares} | "
            f"{_resumen([x / z for x, z in zip(a, s, strict=True)])} | "
            f"{_resumen([y / z for y, z in zip(d, s, strict=True)])}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
