"""Normalized search columns: one per searchable model, indexed by word on PostgreSQL.

The search is "every word of the query inside the normalized column". The column's whitespace
is folded to single spaces, so a query word (which has none) is inside the column exactly when
it is inside one of the column's words; and a query word without digits is inside a word
exactly when it is inside one of the word's runs between digits. On PostgreSQL that gives an
exact path that stays fast at a million rows (docs/decisiones/busqueda.md):

- `hub_palabras(busqueda)`: the column's runs of letters and signs (split at spaces and
  digits), as an array with a GIN index on every searchable table;
- `hub_palabra`: the vocabulary of every run ever stored, kept by statement triggers on insert
  and update (whatever writes: services, the admin, bulk loads), with a trigram index; numbers
  stay out of it, so it holds thousands of entries, not one per filed request;
- a query word is first looked up in the vocabulary (the entries that contain it), then the
  rows are those whose array overlaps that list. A word with a digit, one longer than SOLAPE,
  or one found in too many entries is matched with `LIKE` over the trigram index instead, which
  gives the same answer.

Runs longer than PIEZA characters are indexed as overlapping pieces (one every SOLAPE
characters), so that any query word up to SOLAPE characters lies whole in some piece and no
index entry outgrows PostgreSQL's limits. SQLite keeps `LIKE`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.contrib.postgres.aggregates import ArrayAgg
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import EmptyResultSet
from django.db import connections, models
from django.db.migrations.operations.base import Operation
from django.db.models import Count, Value, Window

from hub.busqueda.texto import normalizar
from hub.lecturas import fila_por_pk

PIEZA = 250  # longest vocabulary entry, in characters (at most 1,000 bytes)
SOLAPE = 125  # pieces start every SOLAPE characters: a query word this long lies in one
MAX_EXPANSIONES = 500  # vocabulary words per query word before falling back to LIKE

# The same digits as the SQL below ([0-9]): other scripts' digits are letters to both.
_DIGITO = re.compile("[0-9]")

VOCABULARIO = "hub_palabra"
FUNCION_PALABRAS = "hub_palabras"
FUNCION_ANOTAR = "hub_anotar_palabras"


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


class Palabras(models.Func):
    """The words of a search column, as PostgreSQL's word index holds them."""

    function = FUNCION_PALABRAS
    output_field = ArrayField(models.TextField())


def palabras_de(texto: str) -> list[str]:
    """The distinct words of a search, normalized, in order."""
    return [p for p in dict.fromkeys(normalizar(texto).split(" ")) if p]


# Within `un_vocabulario()`: what each (database, word) expanded to, read once for all tables.
_expandidas: ContextVar[dict[tuple[str, str], list[str] | None] | None] = ContextVar(
    "hub_palabras_expandidas", default=None
)


@contextmanager
def un_vocabulario() -> Iterator[None]:
    """Within this block each query word is looked up in the vocabulary once, however many
    tables are searched with it (busqueda_global searches four)."""
    token = _expandidas.set({})
    try:
        yield
    finally:
        _expandidas.reset(token)


def _por_vocabulario(palabra: str) -> bool:
    """Whether the vocabulary can answer for this query word (no digit, fits in a piece)."""
    return len(palabra) <= SOLAPE and not _DIGITO.search(palabra)


def expandir(palabras: list[str], alias: str = "default") -> dict[str, list[str] | None]:
    """Each word's vocabulary entries that contain it; None where LIKE must answer instead.

    One query for all the words. None for a word with a digit, longer than SOLAPE (it may
    straddle two pieces) or found in more than MAX_EXPANSIONES entries.
    """
    resultado: dict[str, list[str] | None] = {p: None for p in palabras}
    leidas = _expandidas.get()
    if leidas is None:
        leidas = {}  # outside un_vocabulario(): nothing kept beyond this call
    cortas = []
    for palabra in palabras:
        if (alias, palabra) in leidas:
            resultado[palabra] = leidas[alias, palabra]
        elif _por_vocabulario(palabra):
            cortas.append(palabra)
    if not cortas:
        return resultado
    partes, parametros = [], []
    for i, palabra in enumerate(cortas):
        partes.append(
            # Only constants and the word's position are formatted in; the word is a parameter.
            f"(SELECT {i}, palabra FROM {VOCABULARIO} WHERE palabra LIKE %s "  # noqa: S608
            f"LIMIT {MAX_EXPANSIONES + 1})"
        )
        # LIKE's own characters taken literally, as Django's `contains` escapes them.
        parametros.append(f"%{connections[alias].ops.prep_for_like_query(palabra)}%")
    encontradas: dict[int, list[str]] = {i: [] for i in range(len(cortas))}
    with connections[alias].cursor() as cursor:
        cursor.execute(" UNION ALL ".join(partes), parametros)
        for i, palabra in cursor.fetchall():
            encontradas[i].append(palabra)
    for i, palabra in enumerate(cortas):
        if len(encontradas[i]) <= MAX_EXPANSIONES:
            resultado[palabra] = encontradas[i]
        leidas[alias, palabra] = resultado[palabra]
    return resultado


def filtrar_texto(qs: models.QuerySet, texto: str, campo: str = "busqueda") -> models.QuerySet:
    """Rows whose search column contains every word of `texto` (accent- and case-insensitive).

    On PostgreSQL the vocabulary is read here, once, not when the queryset is evaluated.
    """
    palabras = palabras_de(texto)
    if not palabras:
        return qs
    if connections[qs.db].vendor != "postgresql" or "__" in campo:
        for palabra in palabras:
            qs = qs.filter(**{f"{campo}__contains": palabra})
        return qs
    expansiones = expandir(palabras, qs.db)
    if any(e == [] for e in expansiones.values()):
        # A word no stored text holds: nothing matches, and no query needs to say so.
        return qs.none()
    alias = f"_palabras_{campo}"
    qs = qs.alias(**{alias: Palabras(campo)})
    for palabra in palabras:
        lista = expansiones[palabra]
        if lista is None:
            qs = qs.filter(**{f"{campo}__contains": palabra})
        else:
            qs = qs.filter(**{f"{alias}__overlap": lista})
    return qs


def _ids_ordenados(orden: Any, limite: int, saltar: int = 0) -> models.Func:
    """The pks of the matching rows in `orden`, `limite` of them after `saltar` (an aggregate)."""
    return models.Func(
        ArrayAgg("pk", order_by=orden),
        template=f"(%(expressions)s)[{int(saltar) + 1}:{int(saltar) + int(limite)}]",
        output_field=ArrayField(models.BigIntegerField()),
    )


def total_y_pagina(qs: models.QuerySet, limite: int, saltar: int = 0) -> tuple[int, list[Any]]:
    """The exact count of an ordered `qs` and the pks of its `limite` rows after `saltar`.

    One query reads the matching rows once for both (a count and then a page read them twice,
    and at a million rows reading them is the cost: docs/rendimiento.md). On PostgreSQL an
    aggregate, not `COUNT(*) OVER ()` with LIMIT: its planner costs that as if the limit
    stopped the window early, and walks the date index calling the word function on every row.
    The caller loads the page's rows by pk, with what it shows.
    """
    if qs.query.is_empty():
        return 0, []
    if connections[qs.db].vendor != "postgresql":
        filas = list(
            qs.annotate(_total=Window(Count("pk"))).values_list("pk", "_total")[
                saltar : saltar + limite
            ]
        )
        if not filas and saltar:
            return qs.count(), []  # past the end: the window gave no row to read the total from
        return (filas[0][1] if filas else 0), [pk for pk, _ in filas]
    orden = qs.query.order_by or qs.model._meta.ordering
    fila = qs.order_by().aggregate(
        total=Count("pk"),
        ids=_ids_ordenados(orden, limite, saltar),
    )
    return fila["total"], fila["ids"] or []


def total_y_filas(
    qs: models.QuerySet, columnas: tuple[str, ...], limite: int
) -> tuple[int, list[tuple[Any, ...]]]:
    """The exact count of an ordered `qs` and its first `limite` rows as (pk, *columnas) values.

    On PostgreSQL one statement: the aggregate of `total_y_pagina`, unchanged (the same SQL and
    plan), in FROM; each of its ids then reads its row by primary key in a lateral join, in the
    aggregate's order. That saves the page's own query and its round trip. Elsewhere the two
    queries of `total_y_pagina` and a read by pk. The values come as the database driver gives
    them (no field converters run): for plain columns, as the search items read.
    """
    if qs.query.is_empty():
        return 0, []
    modelo = qs.model
    if connections[qs.db].vendor != "postgresql":
        total, ids = total_y_pagina(qs, limite)
        if not ids:
            return total, []
        leidas = modelo._default_manager.filter(pk__in=ids).values_list("pk", *columnas)
        por_pk = {fila[0]: fila for fila in leidas}
        return total, [por_pk[pk] for pk in ids if pk in por_pk]
    orden = qs.query.order_by or modelo._meta.ordering
    # Grouped by a constant, which Django leaves out of GROUP BY: the aggregate over all the rows
    # that `aggregate()` would run, as a queryset whose SQL can be placed inside another.
    agregado = (
        qs.order_by()
        .annotate(grupo_busqueda=Value(1))
        .values("grupo_busqueda")
        .annotate(total=Count("pk"), ids=_ids_ordenados(orden, limite))
        .values("total", "ids")
    )
    try:
        sql_agregado, parametros_agregado = agregado.query.sql_with_params()
    except EmptyResultSet:
        return 0, []
    # One row by its pk, named by the lateral join below.
    sql_pagina, parametros_pagina = fila_por_pk(
        modelo._default_manager.values_list("pk", *columnas), "puesto", "id"
    )
    with connections[qs.db].cursor() as cursor:
        cursor.execute(
            f"SELECT agregado.total, fila.* FROM ({sql_agregado}) AS agregado "  # noqa: S608
            "LEFT JOIN LATERAL unnest(agregado.ids) WITH ORDINALITY AS puesto(id, n) ON true "
            f"LEFT JOIN LATERAL ({sql_pagina}) AS fila ON true ORDER BY puesto.n",
            (*parametros_agregado, *parametros_pagina),
        )
        filas = cursor.fetchall()
    # No id (no match): one row with the total and nothing joined.
    return filas[0][0], [fila[1:] for fila in filas if fila[1] is not None]


def total_y_primeras(qs: models.QuerySet, limite: int) -> tuple[int, list[Any]]:
    """The exact count of an ordered `qs` and its first `limite` rows (models), in one query.

    For the small searched tables (CDP, RP, quality documents: hundreds to thousands of rows) a
    count in a window over the matching rows: PostgreSQL computes it under the top-N sort of the
    page, so the rows are read once, as the count alone read them. Requests take
    `total_y_pagina`, whose aggregate is what a million rows need (its docstring says why).
    """
    filas = list(qs.annotate(total_encontrado=Window(Count("pk")))[:limite])
    return (filas[0].total_encontrado if filas else 0), filas


class _OperacionPostgres(Operation):
    """A migration operation that works on one model's table on PostgreSQL and does nothing
    elsewhere (nor to Django's model state)."""

    reversible = True
    reduces_to_sql = True
    model_name: str

    def state_forwards(self, app_label, state):
        pass

    def crear(self, schema_editor, tabla: str) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def quitar(self, schema_editor, tabla: str) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def _tabla(self, app_label, schema_editor, state) -> str:
        modelo = state.apps.get_model(app_label, self.model_name)
        return schema_editor.quote_name(modelo._meta.db_table)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            self.crear(schema_editor, self._tabla(app_label, schema_editor, to_state))

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            self.quitar(schema_editor, self._tabla(app_label, schema_editor, from_state))


class IndiceTrigrama(_OperacionPostgres):
    """Migration operation: a pg_trgm GIN index on a column; nothing on other databases."""

    def __init__(self, model_name: str, columna: str, nombre: str):
        self.model_name = model_name
        self.columna = columna
        self.nombre = nombre

    def crear(self, schema_editor, tabla: str) -> None:
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {schema_editor.quote_name(self.nombre)} "
            f"ON {tabla} USING gin ({schema_editor.quote_name(self.columna)} gin_trgm_ops)"
        )

    def quitar(self, schema_editor, tabla: str) -> None:
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(self.nombre)}")

    def describe(self):
        return f"Índice trigrama {self.nombre} sobre {self.model_name}.{self.columna}"

    def deconstruct(self):
        return (
            self.__class__.__qualname__,
            [],
            {"model_name": self.model_name, "columna": self.columna, "nombre": self.nombre},
        )


# The shared parts of the word index, created by whichever migration comes first.
_SQL_COMUN = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    f"CREATE TABLE IF NOT EXISTS {VOCABULARIO} (palabra text PRIMARY KEY)",
    f"CREATE INDEX IF NOT EXISTS {VOCABULARIO}_trgm ON {VOCABULARIO} "
    "USING gin (palabra gin_trgm_ops)",
    # The runs of a text between spaces and digits; a run longer than PIEZA becomes pieces of
    # PIEZA characters that start every SOLAPE characters. The short path first: almost every
    # text is short (repeated runs are harmless there: the index keeps each key once).
    # COST: evaluating it row by row is slow (a regular expression per row); the planner must
    # reach the rows through its index, where GIN answers && without calling it again.
    f"""CREATE OR REPLACE FUNCTION {FUNCION_PALABRAS}(texto text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
    SELECT CASE
      WHEN length(texto) <= {PIEZA}
        THEN array_remove(regexp_split_to_array(texto, '[ 0-9]+'), '')
      ELSE ARRAY(
        SELECT DISTINCT substr(p, i, {PIEZA})
        FROM unnest(regexp_split_to_array(texto, '[ 0-9]+')) AS p,
             generate_series(1, greatest(length(p) - {SOLAPE}, 1), {SOLAPE}) AS i
        WHERE p <> ''
      )
    END
    $$""",  # noqa: S608 (module constants only)
    # Sorted, so that two transactions adding the same new words lock them in one order.
    f"""CREATE OR REPLACE FUNCTION {FUNCION_ANOTAR}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO {VOCABULARIO} (palabra)
      SELECT DISTINCT p FROM nuevas, unnest({FUNCION_PALABRAS}(nuevas.busqueda)) AS p
      ORDER BY p
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END
    $$""",  # noqa: S608 (module constants only)
]


_SQL_QUITAR_COMUN = f"""DO $$ BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE p.proname = '{FUNCION_ANOTAR}'
  ) THEN
    DROP TABLE IF EXISTS {VOCABULARIO};
    DROP FUNCTION IF EXISTS {FUNCION_ANOTAR}();
    DROP FUNCTION IF EXISTS {FUNCION_PALABRAS}(text);
  END IF;
END $$"""  # noqa: S608 (module constants only)


class IndicePalabras(_OperacionPostgres):
    """Migration operation: the word index of a model's `busqueda` (PostgreSQL only).

    The GIN index over its words, the triggers that add new words to the vocabulary, and the
    vocabulary filled with the words already stored.
    """

    def __init__(self, model_name: str, nombre: str):
        self.model_name = model_name
        self.nombre = nombre

    def crear(self, schema_editor, tabla: str) -> None:
        q = schema_editor.quote_name
        for sql in _SQL_COMUN:
            schema_editor.execute(sql)
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {q(self.nombre)} ON {tabla} "
            f"USING gin ({FUNCION_PALABRAS}(busqueda))"
        )
        for evento in ("INSERT", "UPDATE"):
            disparador = q(f"{self.nombre}_{evento.lower()}")
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {disparador} ON {tabla}")
            schema_editor.execute(
                f"CREATE TRIGGER {disparador} AFTER {evento} ON {tabla} "
                "REFERENCING NEW TABLE AS nuevas FOR EACH STATEMENT "
                f"EXECUTE FUNCTION {FUNCION_ANOTAR}()"
            )
        schema_editor.execute(
            f"INSERT INTO {VOCABULARIO} (palabra) SELECT DISTINCT p FROM {tabla}, "  # noqa: S608
            f"unnest({FUNCION_PALABRAS}(busqueda)) AS p ON CONFLICT DO NOTHING"
        )
        # Statistics of the new expression now, not at the next autovacuum: without them the
        # planner guesses a handful of rows for every word and picks nested loops.
        schema_editor.execute(f"ANALYZE {tabla}")
        schema_editor.execute(f"ANALYZE {VOCABULARIO}")

    def quitar(self, schema_editor, tabla: str) -> None:
        for evento in ("insert", "update"):
            disparador = schema_editor.quote_name(f"{self.nombre}_{evento}")
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {disparador} ON {tabla}")
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(self.nombre)}")
        # The shared parts go with the last table that used them.
        schema_editor.execute(_SQL_QUITAR_COMUN)

    def describe(self):
        return f"Índice de palabras {self.nombre} sobre {self.model_name}.busqueda"

    def deconstruct(self):
        return (
            self.__class__.__qualname__,
            [],
            {"model_name": self.model_name, "nombre": self.nombre},
        )
