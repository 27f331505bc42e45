"""The report builder's files: every visible row of a ficha as a real .xlsx or as CSV.

Rows come from `reportes.valores`, the same queryset whose count the tool and the page show,
read in batches. The workbook is written by XlsxWriter in constant-memory mode (each row goes to
a temporary file as soon as the next one starts) and then streamed from the finished file; the
CSV is streamed as it is produced. Neither ever holds the report in memory.

XlsxWriter, not openpyxl, writes: with the same rows it takes half the CPU (100,000 CDP rows:
about 14 s against 29 s on this project's machine), which keeps a 100,000-row file inside a
worker's 30 s. openpyxl reads the files back in the tests.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import tempfile
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import IO, Any

import xlsxwriter
from django.utils.text import slugify

from apps.presupuesto.reportes import Campo

# Above these sizes the file would take longer than a worker may serve one request; the page
# asks for filters or for the CSV instead. `make bench` times each at its cap against gunicorn's
# timeout (XlsxWriter costs ~0.25 ms of CPU per 13-cell row here: 120,000 rows took over 30 s).
MAX_FILAS = {"xlsx": 50_000, "csv": 300_000}
TIPOS_CONTENIDO = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv; charset=utf-8",
}
BOM = "\ufeff"
# Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
INICIO_FORMULA = ("=", "+", "-", "@", "\t", "\r")
FORMATOS_COLUMNA = {"numero": "#,##0.00", "fecha": "yyyy-mm-dd", "entero": "0"}
ANCHOS = {"texto": 24, "numero": 18, "fecha": 13, "entero": 10, "enum": 18}
_NO_PERMITIDO_EN_HOJA = re.compile(r"[\[\]:*?/\\]")
FILAS_POR_TROZO = 500


def nombre_archivo(titulo: str, formato: str, hoy: datetime.date) -> str:
    """`cdp-del-ano-2026-05-04.xlsx`: the title in plain letters, and the day it was made."""
    base = slugify(titulo)[:80] or "reporte"
    return f"{base}-{hoy.isoformat()}.{formato}"


def legibles(columnas: list[tuple[str, Campo]], filas: Iterable[tuple]) -> Iterator[tuple]:
    """Rows with enum codes as their labels (`en_revision` -> `En revisión`)."""
    enums = [i for i, (_, campo) in enumerate(columnas) if campo.nombres]
    if not enums:
        yield from filas
        return
    for fila in filas:
        valores = list(fila)
        for i in enums:
            valores[i] = columnas[i][1].para_personas(valores[i])
        yield tuple(valores)


def xlsx(titulo: str, columnas: list[tuple[str, Campo]], filas: Iterable[tuple]) -> IO[bytes]:
    """The workbook in a temporary file, rewound: a header row, then one row per report row."""
    # Handed to the response, which closes (and so deletes) it once sent.
    archivo = tempfile.TemporaryFile()  # noqa: SIM115
    libro = xlsxwriter.Workbook(
        archivo,
        {
            "constant_memory": True,
            "default_date_format": FORMATOS_COLUMNA["fecha"],
            # What people wrote is text: never a formula, never a link.
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "strings_to_numbers": False,
        },
    )
    libro.set_properties({"title": titulo})
    hoja = libro.add_worksheet(_NO_PERMITIDO_EN_HOJA.sub(" ", titulo)[:31].strip() or "Reporte")
    encabezado = libro.add_format({"bold": True, "bottom": 1})
    for i, (_, campo) in enumerate(columnas):
        # A column's format applies to each of its cells without one of its own.
        numero = FORMATOS_COLUMNA.get(campo.tipo)
        formato = libro.add_format({"num_format": numero}) if numero else None
        hoja.set_column(i, i, ANCHOS.get(campo.tipo, 16), formato)
    hoja.freeze_panes(1, 0)
    hoja.write_row(0, 0, [campo.etiqueta for _, campo in columnas], encabezado)
    for n, fila in enumerate(legibles(columnas, filas), start=1):
        hoja.write_row(n, 0, fila)
    libro.close()
    archivo.seek(0)
    return archivo


def _texto_csv(valor: Any) -> str:
    if valor is None:
        return ""
    if isinstance(valor, Decimal):
        # Excel in Spanish (Colombia) reads a decimal comma, with ; between cells.
        return format(valor, "f").replace(".", ",")
    if isinstance(valor, datetime.date):
        return valor.isoformat()
    texto = str(valor)
    if isinstance(valor, str) and texto.startswith(INICIO_FORMULA):
        return "'" + texto
    return texto


def csv_en_trozos(columnas: list[tuple[str, Campo]], filas: Iterable[tuple]) -> Iterator[bytes]:
    """UTF-8 with BOM (Excel then reads the accents right), `;` between cells, row by row."""
    bufer = io.StringIO()
    escritor = csv.writer(bufer, delimiter=";", lineterminator="\r\n")
    bufer.write(BOM)
    escritor.writerow([campo.etiqueta for _, campo in columnas])
    for n, fila in enumerate(legibles(columnas, filas), start=1):
        escritor.writerow([_texto_csv(v) for v in fila])
        if n % FILAS_POR_TROZO == 0:
            yield bufer.getvalue().encode("utf-8")
            bufer.seek(0)
            bufer.truncate()
    yield bufer.getvalue().encode("utf-8")
