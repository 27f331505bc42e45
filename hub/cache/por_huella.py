"""A credential row in the cache: found by its secret's digest, kept in the versioned cache.

Personal tokens and API keys (apps.mcp.identidades) and OAuth access tokens
(apps.autorizacion.accesos) are read the same way: one entry per digest (`<prefix>:<digest>`),
all under one shared generation that any change of who a credential is replaces
(hub.cache.versionado). Unknown digests are never cached: a guessed secret costs a query, which
the per-IP limit on refused credentials bounds.

What a digest named (its row's id, its person's...) never changes, so this process remembers it:
`conjetura(digest)` is a guess, used only to declare a request's batch ahead of time
(hub.cache.lote); every answer comes from the cache or the database. A wrong or missing guess
costs one more round trip.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hub.cache.versionado import claves_versionado, guardar_versionado, leer_versionado

# Digest -> what it named: this process's guesses (a bounded memory, cleared when full).
_CONJETURAS: dict[str, tuple[int, ...]] = {}
MAX_CONJETURAS = 10_000


def conjetura(digest: str) -> tuple[int, ...] | None:
    """What this process last saw this digest name (a guess), or None."""
    return _CONJETURAS.get(digest)


def _recordar(digest: str, vista: tuple[int, ...]) -> None:
    if len(_CONJETURAS) >= MAX_CONJETURAS:
        _CONJETURAS.clear()
    _CONJETURAS[digest] = vista


@dataclass(frozen=True)
class FilasPorHuella:
    """One kind of credential row in the cache: its key prefix, generation, TTL, and what to
    remember of a row for the guess (`vista`: its id first, then its person's...)."""

    prefijo: str
    generacion: str
    ttl: int
    vista: Callable[[Any], tuple[int, ...]]

    def clave(self, digest: str) -> str:
        return f"{self.prefijo}:{digest}"

    def claves(self, digest: str) -> list[str]:
        """The cache keys a lookup of this digest reads."""
        return claves_versionado(self.clave(digest), self.generacion)

    def prever(self, digest: str) -> tuple[list[str], tuple[int, ...] | None]:
        """For a request's batch: the keys a lookup reads, and the guess of what it names."""
        return self.claves(digest), conjetura(digest)

    def leer(self, digest: str, construir: Callable[[str], Any]) -> Any:
        """The row for this digest: from the cache, else `construir(digest)` (stored if found)."""
        clave = self.clave(digest)
        fila, generacion = leer_versionado(clave, generacion_en=self.generacion)
        if fila is None:
            fila = construir(digest)
            if fila is not None:
                guardar_versionado(clave, fila, generacion, self.ttl)
        if fila is not None:
            _recordar(digest, self.vista(fila))
        return fila
