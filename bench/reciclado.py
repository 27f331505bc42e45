"""The recycling row of `make bench` (issue 23, item 8): the brand's 304 on one worker, first
never recycled, then recycled every N requests with N small enough that about five recycles fall
inside the measured window. One worker, so that nobody else serves while it restarts: the queue
behind a restart is what the p99 shows. The target: p99 recycling within twice the p99 without.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bench.servidores import Servidor, arrancar_hub, detener

if TYPE_CHECKING:
    from bench.correr import Base, Config
    from bench.peticiones import Peticion

RECICLAJES_EN_LA_MEDICION = 5
MINIMO = 50  # requests per worker: fewer would measure restarts, not requests


def _arranques(servidor: Servidor) -> int:
    """Workers the master has booted so far (its log: one line each)."""
    return servidor.log.read_text(errors="replace").count("Booting worker with pid")


def _fila(
    cfg: Config,
    servidor: Servidor,
    peticion: Peticion,
    medir_wrk: Any,
    log: Any,
) -> dict[str, Any]:
    """Warm-up, then the measured run, counting the recycles inside the measured part only."""
    entorno = {
        **peticion.entorno(),
        "BENCH_N": "1",
        "BENCH_ESPERADO": str(peticion.esperado),
        "BENCH_CONTIENE": peticion.contiene or "",
    }
    if cfg.calentar:
        medir_wrk(servidor.url, entorno, cfg.conexiones, cfg.calentar)
    antes = _arranques(servidor)
    resultado = medir_wrk(servidor.url, entorno, cfg.conexiones, cfg.duracion)
    time.sleep(0.5)  # the master logs a boot right after the fork
    resultado["reinicios"] = _arranques(servidor) - antes
    log(
        f"{servidor.nombre:<24} c={cfg.conexiones:<3} {resultado['rps']:>8.1f} req/s  "
        f"p50 {resultado['p50_ms']:>7.2f} ms  p99 {resultado['p99_ms']:>7.2f} ms  "
        f"reinicios {resultado['reinicios']}  errores {resultado['errores']}"
    )
    return resultado


def medir(
    cfg: Config,
    base: Base,
    peticion: Peticion,
    servidores: list[Servidor],
    medir_wrk: Any,
    log: Any,
) -> dict[str, Any]:
    """Both rows and their p99 ratio; the servers are added to `servidores` while they run."""
    sin = arrancar_hub(cfg, base, "hub-1-worker", cfg.puerto + 3, workers=1, reciclar=None)
    servidores.append(sin)
    fila_sin = _fila(cfg, sin, peticion, medir_wrk, log)
    detener([sin])
    servidores.remove(sin)
    # About RECICLAJES_EN_LA_MEDICION recycles in the measured window at the rate just seen.
    cada = max(MINIMO, int(fila_sin["rps"] * cfg.duracion / RECICLAJES_EN_LA_MEDICION))
    con = arrancar_hub(
        cfg, base, "hub-1-worker-reciclando", cfg.puerto + 4, workers=1, reciclar=cada
    )
    servidores.append(con)
    fila_con = _fila(cfg, con, peticion, medir_wrk, log)
    detener([con])
    servidores.remove(con)
    p99_sin = fila_sin["p99_ms"]
    return {
        "peticion": peticion.nombre,
        "max_requests": cada,
        "sin_reciclar": fila_sin,
        "reciclando": fila_con,
        "ratio_p99": round(fila_con["p99_ms"] / p99_sin, 2) if p99_sin else None,
    }
