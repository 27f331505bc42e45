"""The folder of prometheus-client's multiprocess mode, as gunicorn's master keeps it.

Chosen at start (PROMETHEUS_MULTIPROC_DIR, else a folder of this master's own under the system's
temporary folder), emptied when the master starts (values of an earlier run would add up with
this one's), and each dead worker's files folded into one archive file per kind: its counts stay
in the sums, and the folder holds the live workers plus two archives however often workers are
recycled (a scrape reads every file in it). Free of Django imports: gunicorn.conf.py uses it.
"""

from __future__ import annotations

import fcntl
import glob
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CANDADO = ".candado"
# The kinds of file the hub's metrics write (hub/observabilidad/metricas.py has no gauges).
TIPOS = ("counter", "histogram")


def elegir(pid: int) -> tuple[str, bool]:
    """The folder to use and whether it is ours (made for this master, removed at its exit)."""
    propia = os.environ.get(VARIABLE, "").strip()
    if propia:
        return propia, False
    return os.path.join(tempfile.gettempdir(), f"hub-metricas-{pid}"), True


def vaciar(carpeta: str) -> None:
    """Create the folder if needed and remove every metrics file in it."""
    os.makedirs(carpeta, mode=0o700, exist_ok=True)
    for archivo in glob.glob(os.path.join(carpeta, "*.db")):
        os.remove(archivo)


def quitar(carpeta: str) -> None:
    """Remove a folder this master made (its files, its lock, the folder)."""
    for archivo in [*glob.glob(os.path.join(carpeta, "*.db")), os.path.join(carpeta, CANDADO)]:
        with suppress(FileNotFoundError):
            os.remove(archivo)
    with suppress(OSError):
        os.rmdir(carpeta)


@contextmanager
def candado(carpeta: str, *, exclusivo: bool) -> Iterator[None]:
    """A scrape reads under the shared lock, folding a dead worker takes it alone: a scrape
    never sees a worker's counts twice (in its file and in the archive) nor not at all."""
    descriptor = os.open(os.path.join(carpeta, CANDADO), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX if exclusivo else fcntl.LOCK_SH)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def archivar(carpeta: str, pid: int) -> None:
    """A worker ended: its counters and histogram buckets added to the archives, its files gone."""
    from prometheus_client import multiprocess
    from prometheus_client.mmap_dict import MmapedDict

    if not os.path.isdir(carpeta):
        return  # removed by hand: nothing to fold, and the master must go on
    multiprocess.mark_process_dead(pid, carpeta)  # live gauges (none today), by the book
    with candado(carpeta, exclusivo=True):
        for tipo in TIPOS:
            muerto = os.path.join(carpeta, f"{tipo}_{pid}.db")
            if not os.path.exists(muerto):
                continue
            archivo = MmapedDict(os.path.join(carpeta, f"{tipo}_archivo.db"))
            try:
                # Counters and the raw buckets and sums of histograms add up key by key.
                for clave, valor, momento, _ in MmapedDict.read_all_values_from_file(muerto):
                    actual, _ = archivo.read_value(clave)
                    archivo.write_value(clave, actual + valor, momento)
            finally:
                archivo.close()
            os.remove(muerto)
