"""Reads that join two querysets' SQL into one statement on PostgreSQL: a page of ids, then each
id's row by primary key in a lateral join (one round trip and one statement instead of two).

Both querysets are built and compiled by Django as they are (their filters, and so the
visibility rule they carry, unchanged); only the glue between them is written here. A row read
by primary key in a lateral join is an index lookup per id: with the ids as `pk IN (subquery)`
PostgreSQL may instead hash the whole table (docs/rendimiento.md, issue 42).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections, models
from django.db.models.expressions import RawSQL

# An alias or a column named in this module's SQL: the only text of it not built by Django.
_NOMBRE = re.compile(r"[a-z_][a-z0-9_]*")


def _nombre(texto: str, db: str) -> str:
    """`texto` quoted as an identifier, once checked to be a plain lower-case name."""
    if not _NOMBRE.fullmatch(texto):
        raise ValueError(f"no es un nombre de columna: {texto!r}")
    return connections[db].ops.quote_name(texto)


def admite_lateral(qs: models.QuerySet) -> bool:
    """Whether the queryset's database takes the lateral joins below (PostgreSQL)."""
    return connections[qs.db].vendor == "postgresql"


def fila_por_pk(filas: models.QuerySet, alias: str, columna: str) -> tuple[str, tuple[Any, ...]]:
    """SQL and parameters of `filas` restricted to the row whose pk is the outer `alias.columna`
    (of the statement it is joined into), unordered: it is one row."""
    externa = f"{_nombre(alias, filas.db)}.{_nombre(columna, filas.db)}"
    # Two names checked and quoted above, never input.
    return filas.filter(pk=RawSQL(externa, ())).order_by().query.sql_with_params()  # noqa: S611


def filas_de_pagina(pagina: models.QuerySet, filas: models.QuerySet) -> list[dict[str, Any]]:
    """The rows of `filas` (a `values()` queryset) for the ids of `pagina`, in its order, in one
    statement (PostgreSQL: `admite_lateral`).

    `pagina` is a `values_list()` queryset whose first column is the pk, ordered by plain
    column names it selects (a union's order included) and sliced. The values come as the
    database driver gives them (no field converters run): for plain columns, as `values()`
    reads them on PostgreSQL.
    """
    columnas = [_nombre(c, filas.db) for c in pagina.query.values_select]
    claves = [*filas.query.values_select, *filas.query.annotation_select]
    if not columnas or not claves:
        raise ValueError("la página y las filas nombran sus columnas (values_list, values)")
    orden = []
    for campo in pagina.query.order_by:
        nombre = campo.removeprefix("-") if isinstance(campo, str) else None
        if nombre not in pagina.query.values_select:
            raise ValueError(f"la página se ordena por {campo!r}, que no selecciona")
        orden.append(f"pagina.{_nombre(nombre, filas.db)}{' DESC' if campo != nombre else ''}")
    if not orden:
        raise ValueError("la página no tiene un orden propio (order_by)")
    try:
        sql_pagina, parametros_pagina = pagina.query.sql_with_params()
    except EmptyResultSet:
        return []
    sql_fila, parametros_fila = fila_por_pk(filas, "pagina", pagina.query.values_select[0])
    # Only quoted names of the querysets' own columns are formatted in.
    sql = (
        f"SELECT fila.* FROM ({sql_pagina}) AS pagina({', '.join(columnas)}) "  # noqa: S608
        f"CROSS JOIN LATERAL ({sql_fila}) AS fila ORDER BY {', '.join(orden)}"
    )
    with connections[filas.db].cursor() as cursor:
        cursor.execute(sql, (*parametros_pagina, *parametros_fila))
        return [dict(zip(claves, fila, strict=True)) for fila in cursor.fetchall()]
