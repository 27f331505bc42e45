"""The report builder's files: every visible row of a ficha as a real .xlsx or as CSV.

Rows come from `reportes.valores`, the same queryset whose count the tool and the page show,
read in batches. The workbook is written by openpyxl in write-only mode (rows go to a temporary
file as they are appended; with lxml installed, its fast writer) and then streamed from that
file; the CSV is streamed as it is produced. Neither ever holds the report in memory.
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

from django.utils.text import slugify
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from apps.presupuesto.reportes import Campo

# Above these sizes the file would take longer than a worker may serve one request (an .xlsx
# of 200,000 rows takes about 15 s of one core); the page asks for filters or for the CSV.
MAX_FILAS = {"xlsx": 200_000, "csv": 1_000_000}
TIPOS_CONTENIDO = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv; charset=utf-8",
}
BOM = "\ufeff"
# Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
INICIO_FORMULA = ("=", "+", "-", "@", "\t", "\r")
FORMATO_NUMERO = "#,##0.00"
FORMATO_FECHA = "yyyy-mm-dd"
ANCHOS = {"texto": 24, "numero": 18, "fecha": 13, "entero": 10, "enum": 16}
_NO_PERMITIDO_EN_HOJA = re.compile(r"[\[\]:*?/\\]")
FILAS_POR_TROZO = 500


def nombre_archivo(titulo: str, formato: str, hoy: datetime.date) -> str:
    """`cdp-del-ano-2026-05-04.xlsx`: the title in plain letters, and the day it was made."""
    base = slugify(titulo)[:80] or "reporte"
    return f"{base}-{hoy.isoformat()}.{formato}"


def _columna(indice: int) -> str:
    """Spreadsheet column letters: 1 -> A, 27 -> AA."""
    letras = ""
    while indice:
        indice, resto = divmod(indice - 1, 26)
        letras = chr(65 + resto) + letras
    return letras


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
    libro = Workbook(write_only=True)
    libro.properties.title = titulo
    hoja = libro.create_sheet(_NO_PERMITIDO_EN_HOJA.sub(" ", titulo)[:31].strip() or "Reporte")
    hoja.freeze_panes = "A2"
    for i, (_, campo) in enumerate(columnas, start=1):
        hoja.column_dimensions[_columna(i)].width = ANCHOS.get(campo.tipo, 16)
    negrita = Font(bold=True)
    hoja.append([_encabezado(hoja, campo.etiqueta, negrita) for _, campo in columnas])
    tipos = [campo.tipo for _, campo in columnas]
    for fila in legibles(columnas, filas):
        hoja.append([_celda_xlsx(hoja, t, v) for t, v in zip(tipos, fila, strict=True)])
    # Handed to the response, which closes (and so deletes) it once sent.
    archivo = tempfile.TemporaryFile()  # noqa: SIM115
    libro.save(archivo)
    archivo.seek(0)
    return archivo


def _encabezado(hoja, texto: str, fuente: Font) -> WriteOnlyCell:
    celda = WriteOnlyCell(hoja, value=texto)
    celda.font = fuente
    return celda


def _celda_xlsx(hoja, tipo: str, valor: Any) -> Any:
    if valor is None:
        return None
    if tipo == "numero":
        celda = WriteOnlyCell(hoja, value=valor)
        celda.number_format = FORMATO_NUMERO
        return celda
    if isinstance(valor, str) and valor.startswith("="):
        # Text, never a formula (openpyxl would store "=..." as one).
        celda = WriteOnlyCell(hoja, value=valor)
        celda.data_type = "s"
        return celda
    return valor  # dates get openpyxl's yyyy-mm-dd format by themselves


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
