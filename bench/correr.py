"""`make bench`: the hub, the bare limit, its two floors with a shared limit (plain Django and DRF,
bench/limite/suelo.py), the floor of a tool call (bench/limite/herramienta.py) and the SDK peer
side by side under wrk, at scale. Before/after comparisons in turn: bench/alternar.py.

Steps: create/migrate the bench databases and load `demo_data --escala N` unless already loaded
(escala 1 as well, for the query counts); count SQL queries per request at both scales; raise
the bench database's rate limits; start gunicorn (hub and limit, sync workers, one per core) and
uvicorn (peer, one worker per core); check every request once; drive wrk against each; drive a
mixed load until every worker served 20,000 requests while sampling worker RSS; the brand's
304 on one worker without and with recycling (bench/reciclado.py); stop
everything, put the limits back, write var/bench/<timestamp>.json, var/bench/ultimo.json and the
generated part of docs/rendimiento.md.

Environment (all optional): BENCH_ESCALA (1000), BENCH_DURACION (seconds per measurement, 15),
BENCH_CALENTAR (seconds of discarded warm-up before each, 2), BENCH_CONEXIONES (8),
BENCH_MEMORIA (requests per worker in the memory run, 20000), BENCH_PUERTO (8300: hub, +1 limit
and floors, +2 peer, +3 and +4 the one-worker hubs of the recycling row), BENCH_PG
(postgres://postgres@127.0.0.1:5432), BENCH_BASE (hub_bench),
BENCH_REDIS_URL (redis://127.0.0.1:6379/6), BENCH_WORKERS (nproc), BENCH_DOC (write
docs/rendimiento.md: 1).
"""

from __future__ import annotations

import json
import os
import platform
import re
import secrets
import shutil
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import informe, reciclado, reporte
from bench import peticiones as p
from bench.servidores import PY, RAIZ, VAR, Servidor, arrancar, detener, rss_kib

LUA = RAIZ / "bench" / "wrk" / "peticion.lua"
POR_UNIDAD = 1000  # requests per unit of --escala (apps/solicitudes/demo.py)
ESCALA_POR_DEFECTO = 1000  # a million requests
MEZCLA_MEMORIA = (
    "marca_200",
    "marca_304",
    "imagen_304",
    "firma",
    "ping",
    "initialize",
    "estado_solicitud",
)


def entero(nombre: str, defecto: int) -> int:
    crudo = os.environ.get(nombre, "").strip()
    if not crudo:
        return defecto
    valor = int(crudo)
    if valor < 1:
        raise SystemExit(f"{nombre} debe ser al menos 1")
    return valor


def _nproc() -> int:
    return len(os.sched_getaffinity(0))


@dataclass
class Config:
    escala: int = field(default_factory=lambda: entero("BENCH_ESCALA", ESCALA_POR_DEFECTO))
    duracion: int = field(default_factory=lambda: entero("BENCH_DURACION", 15))
    calentar: int = field(default_factory=lambda: int(os.environ.get("BENCH_CALENTAR", "2")))
    conexiones: int = field(default_factory=lambda: entero("BENCH_CONEXIONES", 8))
    memoria: int = field(default_factory=lambda: entero("BENCH_MEMORIA", 20000))
    puerto: int = field(default_factory=lambda: entero("BENCH_PUERTO", 8300))
    workers: int = field(default_factory=lambda: entero("BENCH_WORKERS", _nproc()))
    pg: str = field(
        default_factory=lambda: os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    base: str = field(default_factory=lambda: os.environ.get("BENCH_BASE", "hub_bench"))
    redis: str = field(
        default_factory=lambda: os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
    )
    documento: bool = field(default_factory=lambda: os.environ.get("BENCH_DOC", "1") != "0")


@dataclass
class Base:
    """One bench database: its name, scale, cache prefix and demo output."""

    nombre: str
    escala: int
    prefijo: str
    demo: Path

    def entorno(self, cfg: Config) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
        for quitar in ("ALLOWED_HOSTS", "DEBUG", "HUB_PRODUCCION", "PYTEST_XDIST_WORKER"):
            env.pop(quitar, None)
        env.update(
            DJANGO_SETTINGS_MODULE="hub.settings",
            # One key for every run: the demo credentials in a reused database derive from it.
            SECRET_KEY=os.environ.get("SECRET_KEY") or _secreto_bench(),
            DATABASE_URL=f"{cfg.pg}/{self.nombre}",
            REDIS_URL=cfg.redis,
            HUB_CACHE_PREFIJO=self.prefijo,
            PYTHONPATH=str(RAIZ),
        )
        return env


def _secreto_bench() -> str:
    """The bench's own secret key, made once and kept in var/bench/ (never committed)."""
    archivo = RAIZ / "var" / "bench" / "clave_secreta"
    if not archivo.exists():
        archivo.parent.mkdir(parents=True, exist_ok=True)
        archivo.write_text(secrets.token_urlsafe(50))
        archivo.chmod(0o600)
    return archivo.read_text().strip()


def _sufijo(base: str) -> str:
    """hub_bench -> "", hub_bench_e1 -> "-e1": names of files and cache prefixes per database."""
    resto = base.removeprefix("hub_bench").strip("_-")
    return f"-{resto}" if resto else ""


def _prefijo(base: str) -> str:
    """Each database its own cache prefix: cached singletons and brand must not cross over."""
    return "bench" + _sufijo(base).replace("-", "_")


def _log(texto: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {texto}", flush=True)


def _correr(args: list[str], env: dict[str, str], **kw: Any) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=RAIZ, env=env, check=True, text=True, **kw)  # noqa: S603


# --- databases -------------------------------------------------------------------------------


def _crear_base(cfg: Config, nombre: str) -> None:
    import psycopg

    with psycopg.connect(f"{cfg.pg}/postgres", autocommit=True) as conexion:
        existe = conexion.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [nombre]
        ).fetchone()
        if not existe:
            _log(f"creando la base {nombre}")
            conexion.execute(f'CREATE DATABASE "{nombre}"')


def _vacuum(cfg: Config, nombre: str) -> None:
    """After a bulk load: statistics and visibility map, as autovacuum would leave them.

    Without it the planner estimated 1 row where 20,000 matched (nested loops over the budget
    tables, 110 ms instead of 25) and index-only scans still visited the heap.
    """
    import psycopg

    _log(f"{nombre}: VACUUM (ANALYZE)")
    with psycopg.connect(f"{cfg.pg}/{nombre}", autocommit=True) as conexion:
        conexion.execute("VACUUM (ANALYZE)")


def preparar(cfg: Config, base: Base) -> dict[str, Any]:
    """Migrate and load the demo at the base's scale unless it is already there; timings."""
    env = base.entorno(cfg)
    _crear_base(cfg, base.nombre)
    _correr([PY, "manage.py", "migrate", "--noinput"], env, stdout=subprocess.DEVNULL)
    conteo = json.loads(
        _correr([PY, "-m", "bench.datos", "contar"], env, capture_output=True).stdout
    )
    objetivo = POR_UNIDAD * base.escala
    if conteo["solicitudes"] > 2 * objetivo + POR_UNIDAD:
        raise SystemExit(
            f"{base.nombre} tiene {conteo['solicitudes']} solicitudes: no es la escala "
            f"{base.escala}; use otra BENCH_BASE o bórrela"
        )
    if conteo["solicitudes"] >= objetivo and base.demo.exists():
        _log(f"{base.nombre}: {conteo['solicitudes']} solicitudes, escala {base.escala} ya cargada")
        return {"solicitudes": conteo["solicitudes"], "carga_s": None}
    _log(f"{base.nombre}: cargando demo_data --escala {base.escala} (puede tardar minutos)")
    inicio = time.monotonic()
    _correr(
        [PY, "manage.py", "demo_data", "--escala", str(base.escala), "--salida", str(base.demo)],
        env,
    )
    segundos = round(time.monotonic() - inicio, 1)
    _vacuum(cfg, base.nombre)
    conteo = json.loads(
        _correr([PY, "-m", "bench.datos", "contar"], env, capture_output=True).stdout
    )
    _log(f"{base.nombre}: {conteo['solicitudes']} solicitudes en {segundos} s")
    return {"solicitudes": conteo["solicitudes"], "carga_s": segundos}


def consultas(cfg: Config, base: Base) -> dict[str, Any]:
    salida = _correr(
        [PY, "-m", "bench.consultas", str(base.demo)],
        base.entorno(cfg),
        capture_output=True,
    ).stdout
    return json.loads(salida)


def reportes_al_tope(env: dict[str, str]) -> dict[str, Any]:
    """Each report format at its row cap (a fresh process each), against the worker timeout."""
    import runpy

    timeout = runpy.run_path(str(RAIZ / "gunicorn.conf.py"))["timeout"]
    medidas: dict[str, Any] = {"timeout_worker_s": timeout}
    for formato in ("xlsx", "csv"):
        destino = VAR / f"reporte.{formato}"
        try:
            medidas[formato] = reporte.medir(formato, destino, env=env)
        finally:
            destino.unlink(missing_ok=True)
    return medidas


# --- requests --------------------------------------------------------------------------------


def pedir(url: str, peticion: p.Peticion | None = None) -> tuple[int, dict[str, str], str]:
    datos = peticion.cuerpo.encode("utf-8") if peticion and peticion.cuerpo else None
    req = urllib.request.Request(  # noqa: S310 - http://127.0.0.1 only
        url,
        data=datos,
        method=peticion.metodo if peticion else "GET",
        headers=dict(peticion.cabeceras) if peticion else {},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:  # noqa: S310
            return r.status, dict(r.headers.items()), r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read().decode("utf-8", "replace")


def comprobar(servidores: dict[str, Servidor], lista: list[p.Peticion]) -> None:
    """Every request once, before any load: the right status and body, or stop here."""
    for peticion in lista:
        status, _, cuerpo = pedir(servidores[peticion.servidor].url + peticion.ruta, peticion)
        if status != peticion.esperado or (peticion.contiene and peticion.contiene not in cuerpo):
            raise SystemExit(
                f"{peticion.nombre}: status {status} (se esperaba {peticion.esperado}) "
                f"o falta {peticion.contiene!r} en la respuesta: {cuerpo[:300]}"
            )


def wrk(url: str, entorno: dict[str, str], conexiones: int, segundos: int) -> dict[str, Any]:
    args = [
        "wrk",
        "-t1",
        f"-c{conexiones}",
        f"-d{segundos}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        url,
    ]
    env = {**os.environ, **entorno}
    salida = subprocess.run(  # noqa: S603
        args, env=env, capture_output=True, text=True, check=True
    ).stdout
    linea = next((x for x in salida.splitlines() if x.startswith("BENCH_JSON ")), None)
    if linea is None:
        raise SystemExit(f"wrk no devolvió resultados: {salida[-500:]}")
    crudo = json.loads(linea.removeprefix("BENCH_JSON "))
    segundos_reales = crudo["duracion_us"] / 1e6
    errores_socket = sum(crudo[k] for k in crudo if k.startswith("err_") and k != "err_status")
    return {
        "peticiones": crudo["peticiones"],
        "rps": round(crudo["peticiones"] / segundos_reales, 1) if segundos_reales else 0.0,
        "p50_ms": round(crudo["p50_us"] / 1000, 2),
        "p90_ms": round(crudo["p90_us"] / 1000, 2),
        "p99_ms": round(crudo["p99_us"] / 1000, 2),
        "max_ms": round(crudo["max_us"] / 1000, 2),
        # A failure is a wrong status or body (counted in lua) or a socket error/timeout.
        "errores": crudo["malas"] + errores_socket,
        "errores_socket": errores_socket,
        "conexiones": conexiones,
        "segundos": round(segundos_reales, 2),
    }


def medir(cfg: Config, servidor: Servidor, peticion: p.Peticion, conexiones: int) -> dict[str, Any]:
    entorno = {
        **peticion.entorno(),
        "BENCH_N": "1",
        "BENCH_ESPERADO": str(peticion.esperado),
        "BENCH_CONTIENE": peticion.contiene or "",
    }
    if cfg.calentar:
        wrk(servidor.url, entorno, conexiones, cfg.calentar)
    resultado = wrk(servidor.url, entorno, conexiones, cfg.duracion)
    _log(
        f"{peticion.nombre:<24} c={conexiones:<3} {resultado['rps']:>8.1f} req/s  "
        f"p50 {resultado['p50_ms']:>7.2f} ms  p99 {resultado['p99_ms']:>7.2f} ms  "
        f"errores {resultado['errores']}"
    )
    return resultado


def memoria(cfg: Config, servidor: Servidor, lista: list[p.Peticion]) -> dict[str, Any]:
    """Mixed load in 5-second slices until every worker served `cfg.memoria` requests on average.

    RSS (VmRSS of /proc/<pid>/status) of every worker before, after each slice, and at the end.
    The workers already served the whole run by then (warm: imports, caches, connections).
    """
    # The per-request machinery of every kind of answer, without the search tools: they would
    # take most of the time and add no code path the memory question is about.
    mezcla = [x for x in lista if x.servidor == p.HUB and x.nombre in MEZCLA_MEMORIA]
    entorno = {"BENCH_N": str(len(mezcla))}
    for i, peticion in enumerate(mezcla, start=1):
        entorno.update(peticion.entorno(f"_{i}"))
    pids = servidor.workers()
    inicio = {pid: rss_kib(pid) for pid in pids}
    objetivo = cfg.memoria * len(pids)
    hechas, errores, muestras = 0, 0, []
    while hechas < objetivo:
        tramo = wrk(servidor.url, entorno, cfg.conexiones, 5)
        hechas += tramo["peticiones"]
        errores += tramo["errores"]
        muestras.append({"peticiones": hechas, "rss_kib": {pid: rss_kib(pid) for pid in pids}})
    fin = {pid: rss_kib(pid) for pid in pids}
    if servidor.workers() != pids:
        raise SystemExit("un worker se reinició durante la medición de memoria")
    crecimiento = {pid: (fin[pid] or 0) - (inicio[pid] or 0) for pid in pids}
    _log(
        f"memoria: {hechas} peticiones en {len(pids)} workers, RSS "
        + ", ".join(f"{inicio[x] // 1024}->{fin[x] // 1024} MiB" for x in pids)
    )
    return {
        "peticiones": hechas,
        "por_worker": round(hechas / len(pids)),
        "errores": errores,
        "mezcla": [x.nombre for x in mezcla],
        "rss_inicio_kib": inicio,
        "rss_fin_kib": fin,
        "crecimiento_kib": crecimiento,
        "muestras": muestras,
    }


# --- the machine -----------------------------------------------------------------------------


def _version(args: list[str], patron: str = r"[\d.]+") -> str:
    try:
        salida = subprocess.run(args, capture_output=True, text=True, timeout=10)  # noqa: S603
    except OSError:
        return "?"
    encontrado = re.search(patron, salida.stdout + salida.stderr)
    return encontrado.group(0) if encontrado else "?"


def maquina(cfg: Config) -> dict[str, Any]:
    from importlib.metadata import version

    import django
    import gunicorn
    import mcp  # noqa: F401 - its version comes from the metadata
    import psycopg
    import uvicorn

    cpuinfo = Path("/proc/cpuinfo").read_text()
    modelo = re.search(r"model name\s*:\s*(.+)", cpuinfo)
    meminfo = Path("/proc/meminfo").read_text()
    ram = re.search(r"MemTotal:\s*(\d+)", meminfo)
    with psycopg.connect(f"{cfg.pg}/postgres") as conexion:
        pg = conexion.execute("SHOW server_version").fetchone()[0]
    return {
        "nproc": _nproc(),
        "cpu": modelo.group(1).strip() if modelo else platform.processor(),
        "ram_gib": round(int(ram.group(1)) / 1024 / 1024, 1) if ram else None,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "gunicorn": gunicorn.__version__,
        "uvicorn": uvicorn.__version__,
        "mcp": version("mcp"),
        "postgresql": pg,
        "redis": _version(["redis-server", "--version"], r"v=([\d.]+)").removeprefix("v="),
        "wrk": _version(["wrk", "-v"], r"\d[\w.+~-]*"),
        "carga_1min": os.getloadavg()[0],
    }


# --- the run ---------------------------------------------------------------------------------


def main() -> None:
    cfg = Config()
    if shutil.which("wrk") is None:
        raise SystemExit("falta wrk: apt-get install wrk")
    VAR.mkdir(parents=True, exist_ok=True)
    inicio = time.monotonic()
    # One database per scale: hub_bench holds the million (escala 1000), hub_bench_e<N> the rest.
    nombre = cfg.base if cfg.escala == ESCALA_POR_DEFECTO else f"{cfg.base}_e{cfg.escala}"
    grande = Base(nombre, cfg.escala, _prefijo(nombre), VAR / f"demo{_sufijo(nombre)}.json")
    bases = [grande]
    if cfg.escala != 1:
        chica = f"{cfg.base}_e1"
        bases.insert(0, Base(chica, 1, _prefijo(chica), VAR / f"demo{_sufijo(chica)}.json"))
    cargas = {b.nombre: preparar(cfg, b) for b in bases}
    _log("contando consultas SQL por petición")
    sql = {b.escala: consultas(cfg, b) for b in bases}
    _log("reportes de presupuesto al tope de filas")
    reportes = reportes_al_tope(grande.entorno(cfg))
    demo = json.loads(grande.demo.read_text())
    limites = VAR / f"limites-{grande.nombre}.json"
    env = grande.entorno(cfg)
    # The list page's row is signed in: a session of the same person as the tools' token.
    demo["cookie"] = _correr(
        [PY, "-m", "bench.datos", "sesion", p.USUARIO_PAGINAS], env, capture_output=True
    ).stdout.strip()
    _correr([PY, "-m", "bench.datos", "abrir-limites", str(limites)], env)
    servidores: list[Servidor] = []
    try:
        _log(f"arrancando hub, límite y peer ({cfg.workers} workers cada uno)")
        servidores = arrancar(cfg, grande)
        por_nombre = {s.nombre: s for s in servidores}
        hub = por_nombre[p.HUB]
        rss_arranque = {pid: rss_kib(pid) for pid in hub.workers()}
        _, cab_marca, _ = pedir(hub.url + p.RUTA_MARCA)
        _, cab_logo, _ = pedir(hub.url + p.RUTA_LOGO)
        lista = p.todas(demo, cab_marca["ETag"], cab_logo["ETag"])
        comprobar(por_nombre, lista)
        corridas: dict[str, Any] = {}
        # The limit first and last: the mean of the two is the reference, their spread the noise.
        limite = next(x for x in lista if x.servidor == p.LIMITE)
        corridas["limite_inicio"] = medir(cfg, por_nombre[p.LIMITE], limite, cfg.conexiones)
        for peticion in lista:
            if peticion is not limite:
                corridas[peticion.nombre] = medir(
                    cfg, por_nombre[peticion.servidor], peticion, cfg.conexiones
                )
        corridas["limite_fin"] = medir(cfg, por_nombre[p.LIMITE], limite, cfg.conexiones)
        una = {x.nombre: medir(cfg, hub, x, 1) for x in lista if x.una_conexion}
        mem = memoria(cfg, hub, lista)
        mem["rss_arranque_kib"] = rss_arranque
        _log("reciclado de workers: marca 304 con un worker, sin reciclar y reciclando")
        marca_304 = next(x for x in lista if x.nombre == "marca_304")
        recicla = reciclado.medir(cfg, grande, marca_304, servidores, wrk, _log)
    finally:
        detener(servidores)
        _correr([PY, "-m", "bench.datos", "restaurar-limites", str(limites)], env)
    resultado = {
        "fecha": datetime.now().astimezone().isoformat(timespec="seconds"),
        "config": {
            "escala": cfg.escala,
            "duracion_s": cfg.duracion,
            "calentar_s": cfg.calentar,
            "conexiones": cfg.conexiones,
            "workers": cfg.workers,
            "memoria_por_worker": cfg.memoria,
        },
        "maquina": maquina(cfg),
        "bases": cargas,
        "solicitudes": cargas[grande.nombre]["solicitudes"],
        "peticiones": {
            x.nombre: {
                "titulo": x.titulo,
                "servidor": x.servidor,
                "metodo": x.metodo,
                "ruta": x.ruta,
                "cuerpo": x.cuerpo,
                "esperado": x.esperado,
            }
            for x in lista
        },
        "corridas": corridas,
        "una_conexion": una,
        "sql": {str(k): v for k, v in sql.items()},
        "memoria": mem,
        "reciclado": recicla,
        "reportes": reportes,
        "duracion_total_s": round(time.monotonic() - inicio, 1),
    }
    informe.completar(resultado)
    sello = datetime.now().strftime("%Y%m%d-%H%M%S")
    texto = json.dumps(resultado, indent=2, ensure_ascii=False)
    (VAR / f"{sello}.json").write_text(texto)
    (VAR / "ultimo.json").write_text(texto)
    tabla = informe.markdown(resultado)
    print("\n" + tabla)
    if cfg.documento:
        informe.escribir_documento(RAIZ / "docs" / "rendimiento.md", tabla)
    _log(f"listo en {resultado['duracion_total_s']} s: var/bench/{sello}.json")


if __name__ == "__main__":
    main()
