"""A budget report file at its row cap, written in a fresh process (its peak memory is its own).

`make bench` times it against gunicorn's worker timeout (a ratio of one run, not a timed assert);
`tests/presupuesto/test_exportar_volumen.py` checks the file and the memory with the same script.
Rows are shaped like the CDP source.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parent.parent

_SCRIPT = """
import datetime, json, os, resource, sys, time
from decimal import Decimal
sys.path.insert(0, {raiz!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
import django
django.setup()
from apps.presupuesto import exportar
from apps.presupuesto.reportes import columnas_de, validar_ficha

columnas = columnas_de(validar_ficha({{"fuente": "cdp"}}))

def filas(n):
    for i in range(n):
        yield (f"CDP-2026-{{i:06d}}", None if i % 2 else str(i), f"RAD-2026-{{i:06d}}", 2026,
               "expedido", "SAF", "P001", "Prestación de servicios profesionales " * 2,
               Decimal("1500000.50"), Decimal("1400000.50"), Decimal("0.00"),
               Decimal("1400000.50"), datetime.date(2026, 3, 4))

n = {filas} or exportar.MAX_FILAS[sys.argv[1]]
antes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cpu = time.process_time()
if sys.argv[1] == "xlsx":
    archivo = exportar.xlsx("CDP", columnas, filas(n))
    with open(sys.argv[2], "wb") as destino:
        destino.write(archivo.read())
else:
    with open(sys.argv[2], "wb") as destino:
        for trozo in exportar.csv_en_trozos(columnas, filas(n)):
            destino.write(trozo)
print(json.dumps({{
    "filas": n,
    "cpu_s": time.process_time() - cpu,
    "memoria_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - antes) / 1024,
}}))
"""


def medir(
    formato: str, destino: Path, filas: int | None = None, *, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Write `filas` rows (default: the format's cap) as `formato` to `destino`; the rows, CPU
    seconds and extra peak memory (MiB)."""
    script = _SCRIPT.format(raiz=str(RAIZ), filas=filas)
    salida = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script, formato, str(destino)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env=env,
    )
    return json.loads(salida.stdout.strip().splitlines()[-1])
