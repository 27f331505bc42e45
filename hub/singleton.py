"""Singleton models (one row per organization) read through the shared cache."""

from __future__ import annotations

import logging
from typing import Self

from django.core.cache import cache
from django.db import models, transaction

logger = logging.getLogger(__name__)


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
        return f"unico:{cls._meta.label_lower}:v1"

    @classmethod
    def cargar(cls) -> Self:
        """The current row (created with defaults the first time)."""
        clave = cls._clave_cache()
        try:
            obj = cache.get(clave)
        except Exception:  # a dead cache must not stop reads: fall back to the database
            logger.warning("cache no disponible al leer %s", clave)
            obj = None
        if obj is None:
            obj, _ = cls.objects.get_or_create(pk=1)
            try:
                cache.set(clave, obj, cls.CLAVE_CACHE_TTL)
            except Exception:
                logger.warning("cache no disponible al guardar %s", clave)
        return obj

    @classmethod
    def olvidar(cls) -> None:
        """Drop the cached copy (after a save, or in tests)."""
        try:
            cache.delete(cls._clave_cache())
        except Exception:
            logger.warning("cache no disponible al invalidar %s", cls._clave_cache())

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
