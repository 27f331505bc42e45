"""Layers that point one way (docs/decisiones/codigo.md, «Capas»).

`hub/` is the base the apps stand on: outside its composition root (the root URLconf, the
settings and the WSGI entry) it imports no app; the apps give it what it needs at start, through
registries. And no import circle among the project's modules, even through an import inside a
function; an import under `if TYPE_CHECKING:` never runs and does not count.
"""

from __future__ import annotations

import ast
import itertools
import sys
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


def componentes(aristas: Mapping[str, Mapping[str, object]]) -> list[set[str]]:
    """Every strongly connected group of more than one node: the nodes that import each other."""
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
    return grupos


def ciclos(aristas: Mapping[str, Mapping[str, object]]) -> list[list[str]]:
    """One cycle per strongly connected group, as a path back to its start."""
    return [_camino_de_vuelta(min(grupo), grupo, aristas) for grupo in componentes(aristas)]


def _camino_de_vuelta(
    inicio: str, grupo: set[str], aristas: Mapping[str, Mapping[str, object]]
) -> list[str]:
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


def aplicacion(modulo: str) -> str | None:
    """The app a module belongs to (apps.x.models.base is apps.x), or None outside apps/."""
    partes = modulo.split(".")
    return ".".join(partes[:2]) if partes[0] == "apps" and len(partes) > 1 else None


def grafo_de_aplicaciones(aristas: Grafo) -> dict[str, dict[str, str]]:
    """apps.x -> {apps.y: the first import that makes the edge, as "module (línea n)"}."""
    de_apps: dict[str, dict[str, str]] = {}
    for modulo, destinos in sorted(aristas.items()):
        origen = aplicacion(modulo)
        if origen is None:
            continue
        salida = de_apps.setdefault(origen, {})
        for destino, linea in sorted(destinos.items()):
            llegada = aplicacion(destino)
            if llegada is not None and llegada != origen:
                salida.setdefault(llegada, f"{modulo} (línea {linea})")
    return de_apps


def ciclos_de_aplicaciones(fuentes: Mapping[str, tuple[str, bool]]) -> list[str]:
    """Each group of apps that import each other: its apps, then one cycle through them as
    "a (by module, line) -> b (...) -> a"."""
    de_apps = grafo_de_aplicaciones(grafo(fuentes))
    return [
        ", ".join(sorted(grupo))
        + ": "
        + " -> ".join([*(f"{a} ({de_apps[a][b]})" for a, b in itertools.pairwise(c)), c[-1]])
        for grupo in componentes(de_apps)
        for c in [_camino_de_vuelta(min(grupo), grupo, de_apps)]
    ]


def test_the_detector_finds_an_app_cycle_through_a_function_level_import_but_not_type_checking():
    fuentes = {
        "apps.x": ("", True),
        "apps.x.vistas": ("from apps.y.models import Modelo\n", False),
        "apps.y": ("", True),
        "apps.y.models": ("", False),
        "apps.y.servicios": ("def hacer():\n    from apps.x import vistas\n", False),
        "apps.z": ("", True),
        "apps.z.tipos": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from apps.x.vistas import Vista\n",
            False,
        ),
        "apps.x.usa_z": ("import apps.z.tipos\n", False),
    }
    # No module cycle: x.vistas -> y.models, y.servicios -> x.vistas; but the apps meet.
    assert ciclos(grafo(fuentes)) == []
    assert ciclos_de_aplicaciones(fuentes) == [
        "apps.x, apps.y: "
        "apps.x (apps.x.vistas (línea 1)) -> apps.y (apps.y.servicios (línea 2)) -> apps.x"
    ]


def test_apps_depend_one_way():
    """No two apps import each other, even through a chain of apps or an import inside a
    function (docs/arquitectura.md, "Grafo de las aplicaciones")."""
    fuentes = del_proyecto(archivos(CARPETAS))
    assert len(grafo_de_aplicaciones(grafo(fuentes))) >= 9  # the walk did find the apps
    assert ciclos_de_aplicaciones(fuentes) == []


DOMINIOS = ("apps.solicitudes", "apps.presupuesto", "apps.calidad", "apps.firmas")


def test_the_domain_apps_take_the_tool_registry_from_the_base_and_nothing_from_the_assistant():
    """A tool declares what it needs in hub.herramientas.registro; the assistant enforces it and
    calls the tool: no domain module imports the assistant (docs/arquitectura.md)."""
    aristas = grafo(del_proyecto(archivos(CARPETAS)))
    hallados = [
        f"{modulo}:{linea}: {destino}"
        for modulo, destinos in aristas.items()
        if modulo.startswith(DOMINIOS)
        for destino, linea in destinos.items()
        if destino.startswith("apps.mcp")
    ]
    de_dominios = [d for m in aristas if m.startswith(DOMINIOS) for d in aristas[m]]
    assert "hub.herramientas.registro" in de_dominios
    assert hallados == []


# A library's underscore-private names are its internals (issue 24): no module of the project
# imports one, nor reaches one through a module or object it imported. The project's own
# packages are left to tests/hub/test_nombres_privados.py, and the standard library is not a
# third party (its few underscored names in use, such as os._exit, are documented). Django's
# `_meta` is public, documented API (the Model _meta API) despite its underscore.
DEL_PROYECTO = frozenset({"apps", "bench", "hub", "tests"})
PUBLICOS_CON_GUION = frozenset({"_meta"})


def _privado(nombre: str) -> bool:
    return (
        nombre.startswith("_")
        and not nombre.startswith("__")
        and (nombre not in PUBLICOS_CON_GUION)
    )


def _de_terceros(modulo: str, nivel: int = 0) -> bool:
    paquete = modulo.split(".")[0]
    return not (nivel or paquete in DEL_PROYECTO or paquete in sys.stdlib_module_names)


def internos_de_terceros(fuente: str) -> list[tuple[int, str]]:
    """(line, what) of every private name taken from a library: imported by name (`from lib
    import _x`), or read as an attribute of a name an import bound (`lib._x`, `m.a._x`,
    `getattr(m, "_x")`). A private attribute of anything else (self, an instance) is not looked
    at: a name is followed only as far as its import."""
    arbol = ast.parse(fuente)
    hallados: list[tuple[int, str]] = []
    ligados: dict[str, str] = {}  # name an import binds -> what it names
    for nodo in sentencias_import(arbol):
        if isinstance(nodo, ast.Import):
            for alias in nodo.names:
                if _de_terceros(alias.name):
                    nombre = alias.asname or alias.name.split(".")[0]  # import a.b binds a
                    ligados[nombre] = alias.name if alias.asname else nombre
            continue
        modulo = nodo.module or ""
        if not _de_terceros(modulo, nodo.level):
            continue
        for alias in nodo.names:
            if _privado(alias.name):
                hallados.append((nodo.lineno, f"from {modulo} import {alias.name}"))
            elif alias.name != "*":
                ligados[alias.asname or alias.name] = f"{modulo}.{alias.name}"
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Attribute) and _privado(nodo.attr):
            cadena = _cadena(nodo.value, ligados)
            if cadena:
                hallados.append((nodo.lineno, f"{cadena}.{nodo.attr}"))
        elif (
            isinstance(nodo, ast.Call)
            and isinstance(nodo.func, ast.Name)
            and nodo.func.id == "getattr"
            and len(nodo.args) >= 2
            and isinstance(nodo.args[1], ast.Constant)
            and isinstance(nodo.args[1].value, str)
            and _privado(nodo.args[1].value)
            and (cadena := _cadena(nodo.args[0], ligados))
        ):
            hallados.append((nodo.lineno, f"{cadena}.{nodo.args[1].value}"))
    return sorted(hallados)


def _cadena(nodo: ast.expr, ligados: Mapping[str, str]) -> str | None:
    """`a.b.c` written from a name an import bound, as the dotted name it reaches; else None."""
    atributos = []
    while isinstance(nodo, ast.Attribute):
        atributos.append(nodo.attr)
        nodo = nodo.value
    if not isinstance(nodo, ast.Name) or nodo.id not in ligados:
        return None
    return ".".join([ligados[nodo.id], *reversed(atributos)])


def test_the_detector_finds_a_librarys_private_names_imported_or_reached_through_an_import():
    fuente = (
        "import django.utils.text\n"
        "import oauth2_provider.views.dynamic_client_registration as dcr\n"
        "import os\n"
        "from django.utils import _os, __version__\n"
        "from django.conf import settings\n"
        "from oauth2_provider.views import dynamic_client_registration as registro\n"
        "from apps.x import servicios\n"
        "from . import vistas\n"
        "def f(self, objeto):\n"
        "    from oauth2_provider import _interno\n"
        "    dcr._parse_metadata(b'{}')\n"
        "    django.utils.text._format_lazy\n"
        "    settings._wrapped.x\n"
        "    getattr(registro, '_build_application_kwargs')\n"
        "    servicios._ayuda, vistas._otra, self._estado, objeto._cache._pools\n"
        "    Modelo = settings.AUTH_USER_MODEL\n"
        "    registro.__name__, settings._meta, os._exit\n"
    )
    assert internos_de_terceros(fuente) == [
        (4, "from django.utils import _os"),
        (10, "from oauth2_provider import _interno"),
        (11, "oauth2_provider.views.dynamic_client_registration._parse_metadata"),
        (12, "django.utils.text._format_lazy"),
        (13, "django.conf.settings._wrapped"),
        (
            14,
            "oauth2_provider.views.dynamic_client_registration._build_application_kwargs",
        ),
    ]


def test_no_module_takes_a_private_name_from_a_library():
    rutas = archivos(CARPETAS)
    assert len(rutas) > 100  # the walk did find the project
    hallados = {
        (f"{ruta.relative_to(RAIZ)}: {que}", linea)
        for ruta in rutas
        for linea, que in internos_de_terceros(ruta.read_text(encoding="utf-8"))
    }
    assert sorted(f"{donde} (línea {linea})" for donde, linea in hallados) == []
