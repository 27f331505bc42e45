"""A report at its row cap is written row by row, without holding it in memory.

Its CPU time against the worker's timeout is measured by `make bench` (bench/reporte.py), not
asserted here: a timed assert fails on a loaded machine and says nothing on a fast one.
"""

from __future__ import annotations

import openpyxl
import pytest

from apps.presupuesto.exportar import MAX_FILAS
from bench.reporte import medir


@pytest.mark.parametrize("formato", ["xlsx", "csv"])
def test_a_report_at_the_excel_cap_is_whole_and_takes_little_memory(tmp_path, formato):
    filas = MAX_FILAS["xlsx"]
    destino = tmp_path / f"reporte.{formato}"

    medida = medir(formato, destino, filas)

    # Tens of thousands of rows of 13 cells held as Python objects would be hundreds of MB.
    assert medida["memoria_mb"] < 40, medida
    if formato == "xlsx":
        libro = openpyxl.load_workbook(destino, read_only=True)
        assert libro.active.max_row == filas + 1
        libro.close()
    else:
        with destino.open("rb") as archivo:
            assert sum(1 for _ in archivo) == filas + 1
