"""A name that starts with an underscore is private to its module: no module of the project
imports one from another (issue 24, item 4). A helper two modules share gets a public name in a
module named for what it holds."""

from __future__ import annotations

import ast

from tests.importaciones import RAIZ, archivos, sentencias_import

# Every folder of project code, the tests too: a test imports no helper private to another test
# module (it lives public in conftest.py or a helper module such as tests/mcp_cliente.py).
CARPETAS = ("apps", "hub", "bench", "tests")
PAQUETES = CARPETAS


def privados_importados(fuente: str) -> list[tuple[int, str, str]]:
    """(line, module, name) of every underscore-private name imported from a project module
    (a relative import is always one; its module is written with its leading dots)."""
    encontrados = []
    for nodo in sentencias_import(ast.parse(fuente)):
        if not isinstance(nodo, ast.ImportFrom):
            continue
        modulo = "." * nodo.level + (nodo.module or "")
        if not nodo.level and modulo.split(".")[0] not in PAQUETES:
            continue
        for alias in nodo.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                encontrados.append((nodo.lineno, modulo, alias.name))
    return encontrados


def test_the_detector_finds_a_private_import_at_the_top_inside_a_function_and_relative():
    fuente = (
        "from apps.solicitudes.services.validacion import validar_texto, _NOMBRE_CAMPO\n"
        "from django.utils import _os\n"
        "def f():\n"
        "    from hub.http.ip import _confiable\n"
        "from .transiciones import _plazo\n"
        "from tests.cuentas.test_intentos import _ingresar\n"
        "from __future__ import annotations\n"
    )
    assert privados_importados(fuente) == [
        (1, "apps.solicitudes.services.validacion", "_NOMBRE_CAMPO"),
        (4, "hub.http.ip", "_confiable"),
        (5, ".transiciones", "_plazo"),
        (6, "tests.cuentas.test_intentos", "_ingresar"),
    ]


def test_no_module_imports_an_underscore_private_name_from_another():
    rutas = archivos(CARPETAS)
    assert len(rutas) > 300  # the walk did find the project, its tests included
    hallados = [
        f"{ruta.relative_to(RAIZ)}:{linea}: from {modulo} import {nombre}"
        for ruta in rutas
        for linea, modulo, nombre in privados_importados(ruta.read_text(encoding="utf-8"))
    ]
    assert hallados == []
