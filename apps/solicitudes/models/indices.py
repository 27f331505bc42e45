"""An index whose NULLS LAST ordering SQLite, which cannot declare it, gets by default."""

from __future__ import annotations

from django.db import models
from django.db.models.expressions import OrderBy


class IndiceNulosAlFinal(models.Index):
    """`Index` with `desc(nulls_last=True)` expressions that also builds on SQLite.

    PostgreSQL needs NULLS LAST in the index to serve `ORDER BY … DESC NULLS LAST` from it.
    SQLite rejects the clause in CREATE INDEX, but its NULLs already sort last in a descending
    index, so there the same index without the clause gives the same order.
    """

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if schema_editor.connection.vendor == "postgresql":
            return super().create_sql(model, schema_editor, using=using, **kwargs)
        simple = [
            OrderBy(e.expression, descending=e.descending) if isinstance(e, OrderBy) else e
            for e in self.expressions
        ]
        indice = models.Index(*simple, name=self.name, condition=self.condition)
        return indice.create_sql(model, schema_editor, using=using, **kwargs)
