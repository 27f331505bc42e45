"""Normalized search columns: one per searchable model, trigram-indexed on PostgreSQL."""

from __future__ import annotations

from django.db import models
from django.db.migrations.operations.base import Operation

from hub.texto import normalizar


class ConBusqueda(models.Model):
    """Abstract base: keeps `busqueda` (normalized text) current on every save.

    Subclasses define `texto_busqueda()`; bulk loads must call `preparar_busqueda()` on each
    object before `bulk_create`, since bulk inserts skip `save()`.
    """

    busqueda = models.TextField("texto de búsqueda", default="", editable=False, blank=True)

    class Meta:
        abstract = True

    def texto_busqueda(self) -> str:  # pragma: no cover - each model defines it
        raise NotImplementedError

    def preparar_busqueda(self) -> None:
        self.busqueda = normalizar(self.texto_busqueda())

    def save(self, *args, **kwargs):
        self.preparar_busqueda()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "busqueda" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "busqueda"]
        super().save(*args, **kwargs)


def filtrar_texto(qs: models.QuerySet, texto: str, campo: str = "busqueda") -> models.QuerySet:
    """Rows whose search column contains every word of `texto` (accent- and case-insensitive)."""
    for palabra in normalizar(texto).split(" "):
        if palabra:
            qs = qs.filter(**{f"{campo}__contains": palabra})
    return qs


class IndiceTrigrama(Operation):
    """Migration operation: a pg_trgm GIN index on a column; nothing on other databases."""

    reversible = True
    reduces_to_sql = True

    def __init__(self, model_name: str, columna: str, nombre: str):
        self.model_name = model_name
        self.columna = columna
        self.nombre = nombre

    def state_forwards(self, app_label, state):
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return
        modelo = to_state.apps.get_model(app_label, self.model_name)
        tabla = schema_editor.quote_name(modelo._meta.db_table)
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {schema_editor.quote_name(self.nombre)} "
            f"ON {tabla} USING gin ({schema_editor.quote_name(self.columna)} gin_trgm_ops)"
        )

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(self.nombre)}")

    def describe(self):
        return f"Índice trigrama {self.nombre} sobre {self.model_name}.{self.columna}"

    def deconstruct(self):
        return (
            self.__class__.__qualname__,
            [],
            {"model_name": self.model_name, "columna": self.columna, "nombre": self.nombre},
        )
