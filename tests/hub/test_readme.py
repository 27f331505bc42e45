"""The README a newcomer follows: the port it names can change, every page of its route table
exists, and the commands it gives for the tests are the ones that work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve

RAIZ = Path(__file__).resolve().parents[2]
README = (RAIZ / "README.md").read_text(encoding="utf-8")
MAKEFILE = (RAIZ / "Makefile").read_text(encoding="utf-8")


def _tabla() -> dict[str, list[str]]:
    """The route table: each prefix with the routes of its row (a `{…}` placeholder filled)."""
    filas = {}
    for prefijo, rutas in re.findall(r"^\| \w+ \| `(/\w+)` \| (.+) \|$", README, re.M):
        filas[prefijo] = [
            prefijo + re.sub(r"\{id\}", "1", re.sub(r"\{(uid|token|slot)\}", "ABC123", r))
            for r in re.findall(r"`(/[^`]*)`", rutas)
        ]
    return filas


def test_the_port_is_a_variable_the_readme_names():
    assert re.search(r"^PORT \?= 8000$", MAKEFILE, re.M)
    assert "`PORT=8010 make run`" in README
    assert "uno o dos minutos" in README


@pytest.mark.parametrize(
    "ruta",
    [
        "/solicitudes/",
        "/solicitudes/tareas",
        "/presupuesto/cdp/",
        "/presupuesto/rp/",
        "/presupuesto/paa/",
        "/calidad/documentos/",
    ],
)
def test_every_list_page_is_in_the_route_table_and_exists(ruta):
    assert ruta in [r for rutas in _tabla().values() for r in rutas], ruta
    resolve(ruta)


def test_every_route_of_the_table_resolves():
    tabla = _tabla()
    assert set(tabla) >= {"/auth", "/presupuesto", "/solicitudes", "/calidad", "/mcp"}
    for rutas in tabla.values():
        for ruta in rutas:
            if "{" in ruta:
                continue
            try:
                resolve(ruta)
            except Resolver404:
                pytest.fail(f"la ruta {ruta} del README no existe")


def test_the_test_commands_are_the_ones_that_work():
    assert ".venv/bin/python -m pytest tests/cuentas" in README
    assert (RAIZ / "tests" / "cuentas").is_dir()
    assert "Chromium" in README and "scripts/instalar_chromium.sh" in README
    assert (RAIZ / "scripts" / "instalar_chromium.sh").exists()
