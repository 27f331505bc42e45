"""Which project modules one request runs, in order: the walks that docs/arquitectura.md shows.

A profile hook (sys.setprofile) watches every function call while the request is served and
notes each *entry* into a module of hub/ or apps/ (libraries and the standard library are not
noted): a call into a project module that is not already running further up the stack. The first
entry into a module is a step of the walk; a later one is a climb back (the walk had left that
module and comes back to it). Each entry also names the project module that made it (through
any library code in between), so that "a domain tool never calls into the assistant's limits"
can be checked, not just read.

Two requests are traced, warm (the same request served three times first), as the bench serves
them: a `tools/call` of `estado_solicitud` with an API key and a personal token, and
`GET /auth/api/v1/auth/marca`. With REDIS_URL set, the cache is Redis (production's one round
trip); without it, the walk is that of the file cache and says so. By hand:

    python -m bench.recorrido            # the two walks, as docs/arquitectura.md writes them
    python -m bench.recorrido --entradas  # every entry, with the module that made it

It builds a throwaway test database (Django's test runner, as pytest does) and removes it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parent.parent
CARPETAS = ("hub", "apps")
RUTA_MARCA = "/auth/api/v1/auth/marca"
RUTA_MCP = "/mcp/api/mcp"
CALENTAR = 3  # requests served before the traced one (identities, marks, guesses all warm)


@dataclass(frozen=True)
class Entrada:
    """One entry into a project module: which, from which (None: from outside the project)."""

    modulo: str
    desde: str | None


def _modulo(archivo: str, nombres: dict[str, str | None]) -> str | None:
    """hub.x / apps.y.z for a file of the project's packages, None for anything else."""
    if archivo not in nombres:
        nombre = None
        ruta = Path(archivo)
        if ruta.is_absolute() and ruta.suffix == ".py":
            try:
                partes = list(ruta.resolve().relative_to(RAIZ).with_suffix("").parts)
            except ValueError:
                partes = []
            if partes and partes[0] in CARPETAS:
                if partes[-1] == "__init__":
                    partes.pop()
                nombre = ".".join(partes)
        nombres[archivo] = nombre
    return nombres[archivo]


def recorrer(llamar: Callable[[], Any]) -> list[Entrada]:
    """The entries into project modules while `llamar()` runs, in order."""
    entradas: list[Entrada] = []
    nombres: dict[str, str | None] = {}
    pila: list[str | None] = []  # the project module of each running frame (None: not ours)

    def perfil(marco: Any, evento: str, _arg: Any) -> None:
        if evento == "call":
            modulo = _modulo(marco.f_code.co_filename, nombres)
            if modulo is not None and modulo not in pila:
                desde = next((m for m in reversed(pila) if m is not None), None)
                entradas.append(Entrada(modulo, desde))
            pila.append(modulo)
        elif evento == "return" and pila:
            pila.pop()

    anterior = sys.getprofile()
    sys.setprofile(perfil)
    try:
        llamar()
    finally:
        sys.setprofile(anterior)
    return entradas


def camino(entradas: list[Entrada]) -> list[tuple[str, int]]:
    """The walk: each module in the order it is first entered, with how often it is entered."""
    veces: dict[str, int] = {}
    for entrada in entradas:
        veces[entrada.modulo] = veces.get(entrada.modulo, 0) + 1
    return list(veces.items())


def vueltas(entradas: list[Entrada]) -> int:
    """How many entries come back to a module the walk had already left."""
    return len(entradas) - len({e.modulo for e in entradas})


def texto(titulo: str, entradas: list[Entrada]) -> str:
    """The walk as docs/arquitectura.md writes it (a fenced block, one module per line)."""
    pasos = camino(entradas)
    lineas = [
        f"{titulo}: {len(pasos)} módulos, {len(entradas)} entradas, {vueltas(entradas)} vueltas"
    ]
    for numero, (modulo, veces) in enumerate(pasos, 1):
        extra = f"  (+{veces - 1})" if veces > 1 else ""
        lineas.append(f"{numero:2}. {modulo}{extra}")
    return "\n".join(lineas)


def preparar(client: Any) -> dict[str, Callable[[], Any]]:
    """The two requests, with their data: a request in progress its filer may see, an API key
    and the filer's personal token (tests.factories, as the tests build them)."""
    from apps.solicitudes import services
    from tests.factories import GroupFactory
    from tests.mcp.factories import nueva_clave, nuevo_token
    from tests.solicitudes.factories import persona, tipo_con_etapas

    revision, aprobacion = GroupFactory(name="Revisión R"), GroupFactory(name="Aprobación R")
    tipo = tipo_con_etapas(revision, aprobacion, nombre="Certificado laboral R")
    dueno = persona(username="recorrido", permisos=["solicitudes.radicar", "mcp.asistente.usar"])
    solicitud = services.radicar(tipo=tipo, solicitante=dueno, resumen="Certificado para el banco")
    cabeceras = {
        "HTTP_X_MCP_API_KEY": nueva_clave()[1],
        "HTTP_X_MCP_USER_TOKEN": nuevo_token(dueno)[1],
        "HTTP_ACCEPT": "application/json, text/event-stream",
        "HTTP_MCP_PROTOCOL_VERSION": "2025-06-18",
    }
    mensaje = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "estado_solicitud",
            "arguments": {"numero_radicado": solicitud.numero_radicado},
        },
    }
    cuerpo = json.dumps(mensaje)

    def estado_solicitud() -> None:
        r = client.post(RUTA_MCP, cuerpo, content_type="application/json", **cabeceras)
        if r.status_code != 200 or b'"isError":false' not in r.content:
            raise AssertionError(r.content)

    def marca() -> None:
        r = client.get(RUTA_MARCA)
        if r.status_code != 200:
            raise AssertionError(r.content)

    return {"estado_solicitud": estado_solicitud, "marca": marca}


def recorridos(client: Any) -> dict[str, list[Entrada]]:
    """Each request served warm, then traced once."""
    resultado = {}
    for nombre, llamar in preparar(client).items():
        for _ in range(CALENTAR):
            llamar()
        resultado[nombre] = recorrer(llamar)
    return resultado


TITULOS = {
    "estado_solicitud": "tools/call estado_solicitud (clave + token personal, en caliente)",
    "marca": f"GET {RUTA_MARCA} (en caliente)",
}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.ajustes")  # the test run's settings
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client
    from django.test.utils import (
        setup_databases,
        setup_test_environment,
        teardown_databases,
        teardown_test_environment,
    )

    setup_test_environment()
    bases = setup_databases(verbosity=0, interactive=False)
    try:
        from tests.conftest import limpiar_cache

        limpiar_cache()
        caminos = recorridos(Client())
    finally:
        teardown_databases(bases, verbosity=0)
        teardown_test_environment()
    cache = settings.CACHES["default"]["BACKEND"]
    print(f"caché: {cache}\n")
    for nombre, entradas in caminos.items():
        if "--entradas" in argv:
            print(f"{TITULOS[nombre]}:")
            for entrada in entradas:
                print(f"  {entrada.modulo}  <- {entrada.desde or '(fuera del proyecto)'}")
        else:
            print(texto(TITULOS[nombre], entradas))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
