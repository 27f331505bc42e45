"""Layers that point one way (issue 24, item 3; docs/decisiones.md, "Capas").

`hub/` is the base the apps stand on: outside its composition root (the root URLconf, the
settings and the WSGI entry) it imports no app; the apps give it what it needs at start, through
registries. And no import circle among the project's modules, even through an import inside a
function; an import under `if TYPE_CHECKING:` never runs and does not count.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.importaciones import RAIZ, archivos, nombre_de_modulo, sentencias_import

CARPETAS = ("apps", "hub")
RAIZ_DE_COMPOSICION = frozenset({"hub.urls", "hub.settings", "hub.wsgi"})

Grafo = dict[str, dict[str, int]]  # module -> {module it imports: line of the first import}


def grafo(fuentes: Mapping[str, tuple[str, bool]]) -> Grafo:
    """Who imports whom among `fuentes` ({module: (source, is a package)}), relative resolved."""
    aristas: Grafo = {}
    for modulo, (fuente, es_paquete) in fuentes.items():
        destinos = aristas.setdefault(modulo, {})
        paquete = modulo if es_paquete else modulo.rpartition(".")[0]
        for nodo in sentencias_import(ast.parse(fuente), sin_type_checking=True):
            for nombre in _importados(nodo, paquete, fuentes):
                destino = _modulo_del_proyecto(nombre, fuentes)
                if destino and destino != modulo:
                    destinos.setdefault(destino, nodo.lineno)
    return aristas


def _importados(
    nodo: ast.Import | ast.ImportFrom, paquete: str, fuentes: Mapping[str, object]
) -> list[str]:
    """What a statement names: in `from a import b`, a.b when it is a module, else a."""
    if isinstance(nodo, ast.Import):
        return [alias.name for alias in nodo.names]
    base = nodo.module or ""
    if nodo.level:  # relative: level 1 is the package itself
        partes = paquete.split(".")
        partes = partes[: len(partes) - (nodo.level - 1)]
        base = ".".join([*partes, base] if base else partes)
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in fuentes else base
        for alias in nodo.names
    ]


def _modulo_del_proyecto(nombre: str, fuentes: Mapping[str, object]) -> str | None:
    """The longest project module `nombre` names (a.b.Clase is a.b), or None."""
    while nombre and nombre not in fuentes:
        nombre = nombre.rpartition(".")[0]
    return nombre or None


def ciclos(aristas: Grafo) -> list[list[str]]:
    """One cycle per strongly connected group of modules, as a path back to its start."""
    indice: dict[str, int] = {}
    bajo: dict[str, int] = {}
    pila: list[str] = []
    en_pila: set[str] = set()
    grupos: list[set[str]] = []

    def visitar(v: str) -> None:  # Tarjan; the project is shallow enough for recursion
        indice[v] = bajo[v] = len(indice)
        pila.append(v)
        en_pila.add(v)
        for w in aristas.get(v, {}):
            if w not in indice:
                visitar(w)
                bajo[v] = min(bajo[v], bajo[w])
            elif w in en_pila:
                bajo[v] = min(bajo[v], indice[w])
        if bajo[v] == indice[v]:
            grupo = set()
            while True:
                w = pila.pop()
                en_pila.discard(w)
                grupo.add(w)
                if w == v:
                    break
            if len(grupo) > 1:
                grupos.append(grupo)

    for v in sorted(aristas):
        if v not in indice:
            visitar(v)
    return [_camino_de_vuelta(min(grupo), grupo, aristas) for grupo in grupos]


def _camino_de_vuelta(inicio: str, grupo: set[str], aristas: Grafo) -> list[str]:
    """The shortest path from `inicio` back to itself inside its group (breadth first)."""
    previo: dict[str, str] = {}
    frente = [inicio]
    while frente:
        siguiente = []
        for v in frente:
            for w in sorted(aristas.get(v, {})):
                if w == inicio:
                    camino = [v]
                    while camino[-1] != inicio:
                        camino.append(previo[camino[-1]])
                    return [*reversed(camino), inicio]
                if w in grupo and w not in previo:
                    previo[w] = v
                    siguiente.append(w)
        frente = siguiente
    raise AssertionError(f"{inicio} is in a cycle with no way back")  # pragma: no cover


def del_proyecto(rutas: Iterable[Path]) -> dict[str, tuple[str, bool]]:
    return {
        nombre_de_modulo(ruta): (ruta.read_text(encoding="utf-8"), ruta.name == "__init__.py")
        for ruta in rutas
    }


def descrito(camino: list[str], aristas: Grafo) -> str:
    """a (line 3) -> b (line 9) -> a: each step with the line of the import that makes it."""
    pasos = [f"{a} (línea {aristas[a][b]})" for a, b in itertools.pairwise(camino)]
    return " -> ".join([*pasos, camino[-1]])


def test_the_detector_finds_a_planted_cycle_through_a_function_level_and_a_relative_import():
    fuentes = {
        "apps.x": ("", True),
        "apps.x.models": ("from apps.x.servicios import hacer\n", False),
        "apps.x.servicios": ("def hacer():\n    from . import vistas\n", False),
        "apps.x.vistas": ("import apps.x.models\n", False),
        "apps.x.tipos": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from apps.x.models import Modelo\n",
            False,
        ),
        "apps.x.solo": ("from apps.x.tipos import Tipo\n", False),
    }
    aristas = grafo(fuentes)
    assert ciclos(aristas) == [
        ["apps.x.models", "apps.x.servicios", "apps.x.vistas", "apps.x.models"]
    ]
    assert descrito(ciclos(aristas)[0], aristas) == (
        "apps.x.models (línea 1) -> apps.x.servicios (línea 2) -> apps.x.vistas (línea 1) "
        "-> apps.x.models"
    )
    # An import under TYPE_CHECKING never runs: no edge, so no cycle through it.
    assert aristas["apps.x.tipos"] == {}


def test_no_import_circle_among_the_project_modules():
    fuentes = del_proyecto(archivos(CARPETAS))
    assert len(fuentes) > 100  # the walk did find the project
    aristas = grafo(fuentes)
    assert [descrito(camino, aristas) for camino in ciclos(aristas)] == []


def test_hub_imports_no_app_outside_its_composition_root():
    rutas = archivos(["hub"])
    aristas = grafo(del_proyecto(archivos(CARPETAS)))
    hallados = [
        f"{ruta.relative_to(RAIZ)}:{linea}: {destino}"
        for ruta in rutas
        if (modulo := nombre_de_modulo(ruta)) not in RAIZ_DE_COMPOSICION
        for destino, linea in aristas[modulo].items()
        if destino.split(".")[0] == "apps"
    ]
    assert len(rutas) > 30
    assert hallados == []


DOMINIOS = ("apps.solicitudes", "apps.presupuesto", "apps.calidad", "apps.firmas")


def test_the_domain_apps_take_only_the_tool_registry_from_the_assistant():
    """A tool declares what it needs (apps.mcp.registro); the assistant enforces it: no domain
    module reaches the assistant's limits, credentials or calls (docs/arquitectura.md)."""
    aristas = grafo(del_proyecto(archivos(CARPETAS)))
    hallados = [
        f"{modulo}:{linea}: {destino}"
        for modulo, destinos in aristas.items()
        if modulo.startswith(DOMINIOS)
        for destino, linea in destinos.items()
        if destino.startswith("apps.mcp") and destino != "apps.mcp.registro"
    ]
    assert any(
        d == "apps.mcp.registro" for m in aristas if m.startswith(DOMINIOS) for d in aristas[m]
    )
    assert hallados == []
