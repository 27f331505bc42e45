"""Ratios, targets and the Markdown summary of a run (also written into docs/rendimiento.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

INICIO = "<!-- bench:inicio (generado por make bench; no editar a mano) -->"
FIN = "<!-- bench:fin -->"
# Ratio of throughput to the bare view that each endpoint must reach (issue 16).
RATIOS_OBJETIVO = {"estado_solicitud": 0.15}
# Ratio to the DRF floor (a DRF view that counts one shared limit in Redis and answers the
# envelope, bench/limite/suelo.py) that the public endpoints must reach (issue 24, item 9): the
# bare view has no limit every host shares, so it is no honest reference for them.
RATIOS_OBJETIVO_DRF = {"ping": 0.8, "marca_304": 0.8, "marca_200": 0.8, "firma": 0.8}
# The MCP ping with both credentials against the protocol floor (a JSON-RPC echo in bare Django).
RATIO_MCP_PING_ECO = 0.4
# estado_solicitud against the official MCP SDK serving the same tool.
VECES_PEER = 5.0
# Every tools/call row against the floor of a tool call (a limit in Redis, an indexed SELECT,
# an audit INSERT, in bare Django: bench/limite/herramienta.py); these must reach this ratio.
SUELO_HERRAMIENTA = "suelo_herramienta"
RATIO_SUELO_HERRAMIENTA = 0.3
HERRAMIENTAS_AL_SUELO = (
    "estado_solicitud",
    "estado_cdp",
    "estado_rp",
    "mis_tareas",
    "resumen_solicitud",
)
# The search and dashboard tools, alone on one connection: p99 below this at a million rows.
BUSQUEDAS = (
    "buscar_solicitudes",
    "busqueda_global",
    "mis_tareas",
    "estado_presupuesto",
    "resumen_ejecutivo",
)
P99_BUSQUEDA_MS = 50.0
# The list pages that find (issue 26, item 3), alone on one connection: a whole HTML page.
LISTAS = ("lista_solicitudes",)
P99_LISTA_MS = 100.0
# Worker recycling (bench/reciclado.py): p99 of a row with restarts against the same without.
VECES_P99_RECICLADO = 2.0
# "Flat": a warm worker grows by less than this over its 20,000 requests.
CRECIMIENTO_MAXIMO_KIB = 2048
# A report at its row cap may use this share of gunicorn's worker timeout in CPU: the rest is for
# the query and for sending the file on a busier machine.
RATIO_REPORTE_TIMEOUT = 0.6


def _referencia(corridas: dict[str, Any]) -> float:
    return (corridas["limite_inicio"]["rps"] + corridas["limite_fin"]["rps"]) / 2


def completar(r: dict[str, Any]) -> None:
    """Add ratios and the verdict of every target to the result, in place."""
    corridas = r["corridas"]
    referencia = _referencia(corridas)
    r["limite_rps"] = round(referencia, 1)
    r["limite_dispersion"] = round(
        abs(corridas["limite_inicio"]["rps"] - corridas["limite_fin"]["rps"]) / referencia, 3
    )
    drf = corridas["suelo_drf"]["rps"]
    for corrida in corridas.values():
        corrida["ratio_limite"] = round(corrida["rps"] / referencia, 3)
        corrida["ratio_drf"] = round(corrida["rps"] / drf, 3) if drf else None
    suelo = corridas.get(SUELO_HERRAMIENTA, {}).get("rps")
    for nombre, corrida in corridas.items():
        if r["peticiones"].get(nombre, {}).get("titulo", "").startswith("tools/call"):
            corrida["ratio_suelo_herramienta"] = round(corrida["rps"] / suelo, 3) if suelo else None
    peer = corridas["peer_estado_solicitud"]["rps"]
    r["ratio_peer"] = round(corridas["estado_solicitud"]["rps"] / peer, 3) if peer else None
    escalas = sorted(r["sql"], key=int)
    objetivos: list[dict[str, Any]] = []
    for nombre, minimo in RATIOS_OBJETIVO.items():
        valor = corridas[nombre]["ratio_limite"]
        objetivos.append(
            {"objetivo": f"{nombre} ≥ {minimo} del límite", "valor": valor, "ok": valor >= minimo}
        )
    for nombre, minimo in RATIOS_OBJETIVO_DRF.items():
        valor = corridas[nombre]["ratio_drf"]
        objetivos.append(
            {
                "objetivo": f"{nombre} ≥ {minimo} del suelo DRF",
                "valor": valor,
                "ok": bool(valor and valor >= minimo),
            }
        )
    for nombre in HERRAMIENTAS_AL_SUELO:
        valor = corridas.get(nombre, {}).get("ratio_suelo_herramienta")
        objetivos.append(
            {
                "objetivo": f"{nombre} ≥ {RATIO_SUELO_HERRAMIENTA} del suelo de una herramienta",
                "valor": valor,
                "ok": bool(valor and valor >= RATIO_SUELO_HERRAMIENTA),
            }
        )
    eco = corridas["eco"]["rps"]
    r["ratio_mcp_ping_eco"] = round(corridas["mcp_ping"]["rps"] / eco, 3) if eco else None
    objetivos.append(
        {
            "objetivo": f"MCP ping con clave y token ≥ {RATIO_MCP_PING_ECO} del eco JSON-RPC",
            "valor": r["ratio_mcp_ping_eco"],
            "ok": bool(r["ratio_mcp_ping_eco"] and r["ratio_mcp_ping_eco"] >= RATIO_MCP_PING_ECO),
        }
    )
    consultas_ping = {e: r["sql"][e].get("mcp_ping", {}).get("consultas") for e in escalas}
    objetivos.append(
        {
            "objetivo": "MCP ping con clave y token: 0 consultas SQL",
            "valor": " / ".join(str(v) for v in consultas_ping.values()),
            "ok": all(v == 0 for v in consultas_ping.values()),
        }
    )
    consultas_oauth = {e: r["sql"][e].get("mcp_ping_oauth", {}).get("consultas") for e in escalas}
    objetivos.append(
        {
            "objetivo": "MCP ping con token OAuth: 0 consultas SQL",
            "valor": " / ".join(str(v) for v in consultas_oauth.values()),
            "ok": all(v == 0 for v in consultas_oauth.values()),
        }
    )
    objetivos.append(
        {
            "objetivo": f"estado_solicitud ≥ {VECES_PEER:g} veces el peer (SDK oficial)",
            "valor": r["ratio_peer"],
            "ok": bool(r["ratio_peer"] and r["ratio_peer"] >= VECES_PEER),
        }
    )
    for nombre in BUSQUEDAS:
        p99 = r["una_conexion"][nombre]["p99_ms"]
        objetivos.append(
            {
                "objetivo": f"{nombre} p99 < {P99_BUSQUEDA_MS:g} ms con 1 conexión "
                f"(escala {r['config']['escala']})",
                "valor": p99,
                "ok": p99 < P99_BUSQUEDA_MS,
            }
        )
    for nombre in LISTAS:
        p99 = r["una_conexion"][nombre]["p99_ms"]
        objetivos.append(
            {
                "objetivo": f"{nombre} p99 < {P99_LISTA_MS:g} ms con 1 conexión "
                f"(escala {r['config']['escala']})",
                "valor": p99,
                "ok": p99 < P99_LISTA_MS,
            }
        )
    errores = sum(c["errores"] for c in corridas.values())
    errores += sum(c["errores"] for c in r["una_conexion"].values()) + r["memoria"]["errores"]
    recicla = r.get("reciclado")
    if recicla:
        errores += recicla["sin_reciclar"]["errores"] + recicla["reciclando"]["errores"]
    objetivos.append({"objetivo": "cero errores", "valor": errores, "ok": errores == 0})
    if len(escalas) > 1:
        chica, grande = r["sql"][escalas[0]], r["sql"][escalas[-1]]
        distintas = sorted(
            n for n in grande if chica.get(n, {}).get("consultas") != grande[n]["consultas"]
        )
        objetivos.append(
            {
                "objetivo": f"consultas SQL iguales en escala {escalas[0]} y {escalas[-1]}",
                "valor": ", ".join(distintas) or "iguales",
                "ok": not distintas,
            }
        )
    incorrectas = sorted(n for e in escalas for n, v in r["sql"][e].items() if not v["correcta"])
    if incorrectas:
        objetivos.append(
            {"objetivo": "réplicas del conteo SQL correctas", "valor": incorrectas, "ok": False}
        )
    if recicla:
        reinicios = recicla["reciclando"]["reinicios"]
        ratio = recicla["ratio_p99"]
        objetivos.append(
            {
                "objetivo": f"marca 304 con 1 worker: p99 reciclando (cada "
                f"{recicla['max_requests']} peticiones) ≤ {VECES_P99_RECICLADO:g} × p99 sin "
                "reciclar",
                "valor": f"{ratio} ({reinicios} reinicios en la medición)",
                "ok": bool(reinicios and ratio is not None and ratio <= VECES_P99_RECICLADO),
            }
        )
    crecimiento = max(r["memoria"]["crecimiento_kib"].values())
    objetivos.append(
        {
            "objetivo": f"memoria plana: cada worker crece < {CRECIMIENTO_MAXIMO_KIB} KiB en "
            f"{r['memoria']['por_worker']} peticiones",
            "valor": f"{crecimiento} KiB",
            "ok": crecimiento < CRECIMIENTO_MAXIMO_KIB,
        }
    )
    reportes = r.get("reportes")
    if reportes:
        for formato in ("xlsx", "csv"):
            m = reportes[formato]
            m["ratio_timeout"] = round(m["cpu_s"] / reportes["timeout_worker_s"], 3)
            objetivos.append(
                {
                    "objetivo": f"reporte {formato} al tope ({m['filas']} filas) ≤ "
                    f"{RATIO_REPORTE_TIMEOUT} del timeout del worker "
                    f"({reportes['timeout_worker_s']} s), en CPU",
                    "valor": f"{m['cpu_s']:.1f} s ({m['ratio_timeout']:.2f})",
                    "ok": m["ratio_timeout"] <= RATIO_REPORTE_TIMEOUT,
                }
            )
    r["objetivos"] = objetivos


def _miles(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _ms(valor: float) -> str:
    return f"{valor:.1f}" if valor >= 10 else f"{valor:.2f}"


def markdown(r: dict[str, Any]) -> str:
    """The generated section: machine, command, the table, the targets, memory."""
    m, cfg = r["maquina"], r["config"]
    escalas = sorted(r["sql"], key=int)
    cab_sql = " / ".join(f"escala {e}" for e in escalas)
    lineas = [
        f"Fecha: {r['fecha']}. Máquina: {m['nproc']} núcleos ({m['cpu']}), {m['ram_gib']} GiB de "
        f"RAM, Linux {m['kernel']}; carga media al terminar: {m['carga_1min']:.2f}. "
        f"Python {m['python']}, Django {m['django']}, gunicorn {m['gunicorn']}, "
        f"uvicorn {m['uvicorn']}, mcp {m['mcp']}, PostgreSQL {m['postgresql']}, "
        f"Redis {m['redis']}, wrk {m['wrk']}.",
        "",
        f"Comando: `BENCH_ESCALA={cfg['escala']} BENCH_DURACION={cfg['duracion_s']} make bench` "
        f"({cfg['workers']} workers sync de gunicorn por servidor; wrk -t1 "
        f"-c{cfg['conexiones']}, {cfg['calentar_s']} s de calentamiento descartado y "
        f"{cfg['duracion_s']} s medidos por fila; duración total {r['duracion_total_s']:.0f} s).",
        "",
        f"Límite (vista Django sin middleware): {r['limite_rps']:.0f} req/s, media de la primera "
        f"y la última medición (difieren en {r['limite_dispersion'] * 100:.1f} %: el ruido de la "
        "máquina). Suelo DRF (la misma vista desnuda más un límite compartido en Redis, como "
        f"APIView): {r['corridas']['suelo_drf']['rps']:.0f} req/s.",
        "",
        f"| petición | req/s | × límite | × suelo DRF | × suelo herramienta | p50 ms | p99 ms "
        f"| errores | SQL/petición ({cab_sql}) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for nombre, c in r["corridas"].items():
        if nombre.startswith("limite"):
            titulo = "límite: vista sin middleware" + (
                " (inicio)" if nombre.endswith("inicio") else " (fin)"
            )
        else:
            titulo = r["peticiones"][nombre]["titulo"]
        sql = " / ".join(
            str(r["sql"][e][nombre]["consultas"]) if nombre in r["sql"][e] else "–" for e in escalas
        )
        al_suelo = c.get("ratio_suelo_herramienta")
        lineas.append(
            f"| {titulo} | {c['rps']:.0f} | {c['ratio_limite']:.2f} | {c['ratio_drf']:.2f} | "
            f"{'–' if al_suelo is None else f'{al_suelo:.2f}'} | {_ms(c['p50_ms'])} | "
            f"{_ms(c['p99_ms'])} | {c['errores']} | {sql} |"
        )
    lineas += [
        "",
        f"estado_solicitud: hub / peer (SDK oficial) = **{r['ratio_peer']:.2f}**. MCP ping con "
        f"clave y token / eco JSON-RPC = **{r['ratio_mcp_ping_eco']:.2f}**.",
        "",
        f"Con una sola conexión (latencia sin cola; escala {cfg['escala']}, "
        f"{_miles(r['solicitudes'])} solicitudes):",
        "",
        "| herramienta | req/s | p50 ms | p99 ms | máx ms | errores |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for nombre, c in r["una_conexion"].items():
        lineas.append(
            f"| {r['peticiones'][nombre]['titulo']} | {c['rps']:.0f} | {_ms(c['p50_ms'])} | "
            f"{_ms(c['p99_ms'])} | {_ms(c['max_ms'])} | {c['errores']} |"
        )
    recicla = r.get("reciclado")
    if recicla:
        lineas += [
            "",
            f"Reciclado de workers (marca 304, un worker, wrk -c{cfg['conexiones']}): el mismo "
            f"worker sin reciclar y reciclando cada {recicla['max_requests']} peticiones "
            f"(`GUNICORN_MAX_REQUESTS`; aplicación cargada antes de bifurcar). p99 reciclando / "
            f"sin reciclar = **{recicla['ratio_p99']}**.",
            "",
            "| worker | req/s | p50 ms | p99 ms | máx ms | reinicios medidos | errores |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for titulo, c in (
            ("sin reciclar", recicla["sin_reciclar"]),
            ("reciclando", recicla["reciclando"]),
        ):
            lineas.append(
                f"| {titulo} | {c['rps']:.0f} | {_ms(c['p50_ms'])} | {_ms(c['p99_ms'])} | "
                f"{_ms(c['max_ms'])} | {c['reinicios']} | {c['errores']} |"
            )
    mem = r["memoria"]
    pids = list(mem["rss_fin_kib"])
    lineas += [
        "",
        f"Memoria (VmRSS por worker, `max_requests` desactivado): al arrancar → antes de la "
        f"carga mixta → después de {mem['peticiones']} peticiones (≈{mem['por_worker']} por "
        "worker): "
        + "; ".join(
            f"{(mem['rss_arranque_kib'].get(pid) or 0) / 1024:.1f} → "
            f"{mem['rss_inicio_kib'][pid] / 1024:.1f} → {mem['rss_fin_kib'][pid] / 1024:.1f} MiB"
            for pid in pids
        )
        + ".",
        "",
        "| objetivo | valor | cumplido |",
        "|---|---|---|",
    ]
    for o in r["objetivos"]:
        lineas.append(f"| {o['objetivo']} | {o['valor']} | {'sí' if o['ok'] else '**no**'} |")
    return "\n".join(lineas)


def escribir_documento(ruta: Path, tabla: str) -> None:
    """Replace the generated section of docs/rendimiento.md (the rest is written by hand)."""
    bloque = f"{INICIO}\n{tabla}\n{FIN}"
    if ruta.exists() and INICIO in ruta.read_text():
        texto = re.sub(
            re.escape(INICIO) + r".*?" + re.escape(FIN),
            lambda _m: bloque,
            ruta.read_text(),
            flags=re.S,
        )
    else:
        texto = f"# Rendimiento\n\n## Última corrida de `make bench`\n\n{bloque}\n"
    ruta.write_text(texto)
