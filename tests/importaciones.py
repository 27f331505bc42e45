"""The project's Python files and the imports written in them, read with `ast` (no import runs).

Shared by the tests that hold rules about imports: no private name imported from another module
(tests/hub/test_nombres_privados.py) and layers that point one way (tests/hub/test_capas.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

from django.conf import settings

RAIZ = Path(settings.BASE_DIR)


def archivos(carpetas: Iterable[str]) -> list[Path]:
    """Every .py file under the given top-level folders, sorted."""
    return sorted(p for carpeta in carpetas for p in (RAIZ / carpeta).rglob("*.py"))


def nombre_de_modulo(ruta: Path) -> str:
    """The dotted name a file is imported as (a package's __init__.py is the package)."""
    partes = ruta.relative_to(RAIZ).with_suffix("").parts
    return ".".join(partes[:-1] if partes[-1] == "__init__" else partes)


def _es_type_checking(nodo: ast.If) -> bool:
    prueba = nodo.test
    return (isinstance(prueba, ast.Name) and prueba.id == "TYPE_CHECKING") or (
        isinstance(prueba, ast.Attribute) and prueba.attr == "TYPE_CHECKING"
    )


def sentencias_import(
    arbol: ast.AST, *, sin_type_checking: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at the top or inside functions and classes, in source order.

    With `sin_type_checking`, the body of an `if TYPE_CHECKING:` is left out (its `else` is not):
    those imports never run.
    """
    yield from _sentencias(ast.iter_child_nodes(arbol), sin_type_checking)


def _sentencias(
    nodos: Iterable[ast.AST], sin_type_checking: bool
) -> Iterator[ast.Import | ast.ImportFrom]:
    for nodo in nodos:
        if isinstance(nodo, ast.Import | ast.ImportFrom):
            yield nodo
        elif sin_type_checking and isinstance(nodo, ast.If) and _es_type_checking(nodo):
            yield from _sentencias(nodo.orelse, sin_type_checking)
        else:
            yield from _sentencias(ast.iter_child_nodes(nodo), sin_type_checking)
