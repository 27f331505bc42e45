"""Which project modules one request runs, in order: the walks that docs/arquitectura.md shows.

A profile hook (sys.setprofile) watches every function call while the request is served and
notes each *entry* into a module of hub/ or apps/ (libraries and the standard library are not
noted): a call into a project module that is not already running further up the stack. Each
entry also names the project module that made it (through any library code in between), so
that "a domain tool never calls into the assistant's limits" can be checked, not just read. A
line hook (sys.settrace) counts the lines of its own code each module runs.

The walk counts as issue 24 does (calibrated on its baseline, 95d58e0: 25 and 13 modules):

- a module is *touched* when it runs at least `LINEAS` lines of its own code for the request;
  below that it was entered only for a trivial helper (a check, a format) and is listed apart;
- a *climb back* is control coming back to a touched module that the walk had already left,
  from a touched module first entered after it (a lower layer calling up: a domain tool into
  the assistant's limits), counted once per pair (module, caller).

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
LINEAS = 10  # own lines a module must run to count as touched (fewer: a trivial helper)


@dataclass(frozen=True)
class Entrada:
    """One entry into a project module: which, from which (None: from outside the project), and
    the project modules running above it, outermost first."""

    modulo: str
    desde: str | None
    arriba: tuple[str, ...] = ()


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


@dataclass(frozen=True)
class Recorrido:
    """What one request ran: its entries in order and the lines each project module ran."""

    entradas: list[Entrada]
    lineas: dict[str, int]


def recorrer(llamar: Callable[[], Any]) -> Recorrido:
    """The entries into project modules while `llamar()` runs, in order, and their lines."""
    entradas: list[Entrada] = []
    lineas: dict[str, int] = {}
    nombres: dict[str, str | None] = {}
    pila: list[str | None] = []  # the project module of each running frame (None: not ours)

    def perfil(marco: Any, evento: str, _arg: Any) -> None:
        if evento == "call":
            modulo = _modulo(marco.f_code.co_filename, nombres)
            if modulo is not None and modulo not in pila:
                arriba = tuple(m for m in pila if m is not None)
                entradas.append(Entrada(modulo, arriba[-1] if arriba else None, arriba))
            pila.append(modulo)
        elif evento == "return" and pila:
            pila.pop()

    def traza(marco: Any, _evento: str, _arg: Any) -> Callable[..., Any] | None:
        modulo = _modulo(marco.f_code.co_filename, nombres)
        if modulo is None:
            return None

        def linea(_marco: Any, evento: str, _arg: Any) -> Callable[..., Any]:
            if evento == "line":
                lineas[modulo] = lineas.get(modulo, 0) + 1
            return linea

        return linea

    anterior, anterior_traza = sys.getprofile(), sys.gettrace()
    sys.setprofile(perfil)
    sys.settrace(traza)
    try:
        llamar()
    finally:
        sys.settrace(anterior_traza)
        sys.setprofile(anterior)
    return Recorrido(entradas, lineas)


def camino(recorrido: Recorrido) -> list[str]:
    """The walk: each touched module in the order it is first entered."""
    orden = dict.fromkeys(e.modulo for e in recorrido.entradas)
    return [m for m in orden if recorrido.lineas.get(m, 0) >= LINEAS]


def ayudantes(recorrido: Recorrido) -> list[str]:
    """The modules entered only for a trivial helper (fewer than `LINEAS` own lines)."""
    orden = dict.fromkeys(e.modulo for e in recorrido.entradas)
    return [m for m in orden if recorrido.lineas.get(m, 0) < LINEAS]


def vueltas(recorrido: Recorrido) -> list[tuple[str, str]]:
    """The climbs back, once per (module, caller): a touched module the walk had left, entered
    again from a touched module first entered after it."""
    pasos = camino(recorrido)
    puesto = {m: i for i, m in enumerate(pasos)}
    vistos: set[str] = set()
    resultado: dict[tuple[str, str], None] = {}  # ordered, once per pair
    for entrada in recorrido.entradas:
        if entrada.modulo not in puesto:
            continue
        # The caller that counts is the nearest touched module running (helpers pass through).
        desde = next((m for m in reversed(entrada.arriba) if m in puesto), None)
        if (
            entrada.modulo in vistos
            and desde is not None
            and puesto[entrada.modulo] < puesto[desde]
        ):
            resultado[(entrada.modulo, desde)] = None
        vistos.add(entrada.modulo)
    return list(resultado)


def unidad(modulo: str) -> str:
    """The layer unit a module belongs to: `hub` (the base) or its app, `apps.<app>`."""
    partes = modulo.split(".")
    return "hub" if partes[0] == "hub" else ".".join(partes[:2])


def subidas(recorrido: Recorrido) -> list[tuple[str, str]]:
    """The climbs back that do not go down: into another app, or from the base into an app.

    A climb into `hub` (the base every layer stands on) or within the caller's own app is a
    call down into a module another layer used first; one into another app is a layer reaching
    across or up (the domain tool that called the assistant's limits, issue 24)."""
    return [
        (modulo, desde)
        for modulo, desde in vueltas(recorrido)
        if unidad(modulo) not in ("hub", unidad(desde))
    ]


def texto(titulo: str, recorrido: Recorrido) -> str:
    """The walk as docs/arquitectura.md writes it (a fenced block, one module per line)."""
    pasos, subidas = camino(recorrido), vueltas(recorrido)
    lineas = [f"{titulo}: {len(pasos)} módulos, {len(subidas)} vueltas"]
    lineas += [f"{numero:2}. {modulo}" for numero, modulo in enumerate(pasos, 1)]
    for modulo, desde in subidas:
        lineas.append(f"    vuelta: {desde} -> {modulo}")
    sueltos = ayudantes(recorrido)
    if sueltos:
        lineas.append(f"    ayudantes (menos de {LINEAS} líneas): {', '.join(sueltos)}")
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


def recorridos(client: Any) -> dict[str, Recorrido]:
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
    for nombre, hecho in caminos.items():
        if "--entradas" in argv:
            print(f"{TITULOS[nombre]}:")
            for entrada in hecho.entradas:
                lineas = hecho.lineas.get(entrada.modulo, 0)
                desde = entrada.desde or "(fuera del proyecto)"
                print(f"  {entrada.modulo} ({lineas} líneas)  <- {desde}")
        else:
            print(texto(TITULOS[nombre], hecho))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
