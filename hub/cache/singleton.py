"""Singleton models (one row per organization) read through the shared versioned cache.

The row lives in the shared cache (hub.cache.versionado), never in process memory: a change made
on one host is seen on all at once. Within one request each singleton is read once (the
per-request memo, `memoria_de_peticion`).
"""

from __future__ import annotations

from typing import Any, Self

from django.db import models, transaction

from hub.cache.versionado import (
    claves_versionado,
    guardar_versionado,
    invalidar_versionado,
    leer_versionado,
    memoria,
    memoria_de_peticion,
)

__all__ = ["ModeloUnico", "memoria_de_peticion"]


def _copia(fila: Any) -> Any:
    """A shallow copy of a singleton row (plain fields only): copy.copy() of a model instance goes
    through pickling's protocol and cost a tenth of a ping."""
    nueva = object.__new__(type(fila))
    nueva.__dict__.update(fila.__dict__)
    nueva._state = models.base.ModelState()
    nueva._state.db, nueva._state.adding = fila._state.db, fila._state.adding
    return nueva


class ModeloUnico(models.Model):
    """Abstract base: the row with pk=1, cached under one key and dropped from cache on save.

    Several processes and hosts read it, so the copy lives in the shared cache (Redis in
    production), never in process memory: a change made on one host is seen on all at once.
    """

    CLAVE_CACHE_TTL = 3600

    class Meta:
        abstract = True

    @classmethod
    def _clave_cache(cls) -> str:
        return f"unico:{cls._meta.label_lower}:v2"  # v2: versioned entries

    @classmethod
    def cargar(cls) -> Self:
        """The current row (created with defaults the first time)."""
        leidos = memoria()
        if leidos is not None and cls in leidos:
            # A copy: a caller that edits its row without saving must not change the others'.
            return _copia(leidos[cls])
        obj = cls._cargar_compartido()
        if leidos is not None:
            leidos[cls] = _copia(obj)
        return obj

    @classmethod
    def claves_cache(cls) -> list[str]:
        """The cache keys `cargar()` reads (for a request's batch, hub.cache.lote)."""
        return claves_versionado(cls._clave_cache())

    @classmethod
    def fila(cls) -> Self:
        """The row from the database, created with defaults the first time; no cache involved.

        Created without `save()`, which would start a new cache generation and waste the build
        under way: no cached copy can come from a row that did not exist yet.
        """
        obj = cls.objects.filter(pk=1).first()
        if obj is None:
            cls.objects.bulk_create([cls(pk=1)], ignore_conflicts=True)  # another host may win
            obj = cls.objects.get(pk=1)
        return obj

    @classmethod
    def _cargar_compartido(cls) -> Self:
        clave = cls._clave_cache()
        obj, generacion = leer_versionado(clave)
        if obj is None:
            obj = cls.fila()
            guardar_versionado(clave, obj, generacion, cls.CLAVE_CACHE_TTL)
        return obj

    @classmethod
    def olvidar(cls) -> None:
        """Make the cached copy stale on every host (after a save, or in tests)."""
        leidos = memoria()
        if leidos is not None:
            leidos.pop(cls, None)
        invalidar_versionado(cls._clave_cache())

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)
        type(self).olvidar()
        # Also after commit: a reader between save and commit may have cached the old row.
        transaction.on_commit(type(self).olvidar)

    def delete(self, *args, **kwargs):
        result = super().delete(*args, **kwargs)
        type(self).olvidar()
        return result
