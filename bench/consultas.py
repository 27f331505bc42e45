"""SQL queries per request: each benchmark request replayed once through Django's test client.

`python -m bench.consultas DEMO.json` (with the database's environment) prints JSON. The test
client runs the same middleware, URLs and views as gunicorn, in-process, against the same
database and cache, so CaptureQueriesContext sees every query of the request. Each request is
sent twice and the second is counted: the first fills the caches (brand, singletons) that a
running worker already holds, and the steady state is what a load test measures. The peer's
count is its handler (credential check + tool function) run the same way.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _enviar(cliente, peticion) -> Any:
    cabeceras = {k: v for k, v in peticion.cabeceras.items() if k != "Content-Type"}
    if peticion.metodo == "POST":
        return cliente.post(
            peticion.ruta,
            data=peticion.cuerpo or "",
            content_type=peticion.cabeceras.get("Content-Type", "application/json"),
            headers=cabeceras,
        )
    return cliente.get(peticion.ruta, headers=cabeceras)


def _segunda_vez(enviar: Callable[[], Any]) -> tuple[Any, dict[str, Any]]:
    """Send once to warm the caches as in a running worker, then count the second send."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    enviar()
    with CaptureQueriesContext(connection) as capturadas:
        respuesta = enviar()
    sql = [q["sql"][:300] for q in capturadas.captured_queries]
    return respuesta, {"consultas": len(sql), "sql": sql}


def _contar_hub(cliente, peticion) -> dict[str, Any]:
    respuesta, conteo = _segunda_vez(lambda: _enviar(cliente, peticion))
    cuerpo = respuesta.content.decode("utf-8", "replace")
    correcta = respuesta.status_code == peticion.esperado and (
        peticion.contiene is None or peticion.contiene in cuerpo
    )
    return {**conteo, "status": respuesta.status_code, "correcta": correcta}


def _contar_peer(demo: dict[str, Any], peticion) -> dict[str, Any]:
    from bench.peer.servidor import atender

    numero = json.loads(peticion.cuerpo)["params"]["arguments"]["numero_radicado"]
    datos, conteo = _segunda_vez(lambda: atender(peticion.cabeceras, "127.0.0.1", numero))
    return {**conteo, "status": 200, "correcta": datos.get("encontrado") is True}


def medir(demo: dict[str, Any]) -> dict[str, Any]:
    from django.test import Client

    from bench import peticiones as p
    from bench.datos import sesion

    cliente = Client(REMOTE_ADDR="127.0.0.1")
    demo = {"cookie": sesion(p.USUARIO_PAGINAS), **demo}
    etag_marca = cliente.get(p.RUTA_MARCA).headers["ETag"]
    etag_logo = cliente.get(p.RUTA_LOGO).headers["ETag"]
    resultado: dict[str, Any] = {}
    for peticion in p.todas(demo, etag_marca, etag_logo):
        if peticion.servidor == p.HUB:
            resultado[peticion.nombre] = _contar_hub(cliente, peticion)
        elif peticion.servidor == p.PEER:
            resultado[peticion.nombre] = _contar_peer(demo, peticion)
    return resultado


def main(argv: list[str]) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
    django.setup()
    demo = json.loads(Path(argv[0]).read_text())
    print(json.dumps(medir(demo), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
