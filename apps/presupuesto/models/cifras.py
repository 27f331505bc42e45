"""Budget figures kept on write (PostgreSQL): count and sums per vigencia, project, area, source
and state, so the dashboard reads a few hundred cells instead of every CDP, RP and PAA line.

Statement triggers on the four sources (assignments, PAA lines, CDP, RP) add what each
statement inserted and subtract what it deleted, in the writer's transaction, whatever writes
(services, the admin, bulk loads). A CDP that changes project or area carries its RPs' figures
along; a project that changes vigencia carries its assignments'. TRUNCATE of a source empties its
figures. SQLite has no triggers here: the dashboard groups the rows themselves there
(`selectors/cifras.py`), and the tests hold both to the same answers.
"""

# ruff: noqa: S608 (every SQL text here is built from this module's constants; no input)
from __future__ import annotations

from django.db import models

from apps.presupuesto.models.base import VisiblesQuerySet

TABLA = "presupuesto_cifra"

# Each source as rows of (vigencia, source, project, area, state, amount, obligated), read from
# a transition table T. An assignment's vigencia is its project's; an RP's cell is its CDP's.
_FUENTES = {
    "presupuesto_asignacion": (
        "asignacion",
        "SELECT p.vigencia_id, 'asignacion', t.proyecto_id, t.area_id, '', t.valor, 0 "
        "FROM {t} t JOIN presupuesto_proyecto p ON p.id = t.proyecto_id",
    ),
    "presupuesto_lineapaa": (
        "linea",
        "SELECT t.vigencia_id, 'linea', t.proyecto_id, t.area_id, t.estado, t.valor_estimado, 0 "
        "FROM {t} t",
    ),
    "presupuesto_cdp": (
        "cdp",
        "SELECT t.vigencia_id, 'cdp', t.proyecto_id, t.area_id, t.estado, t.valor_actual, 0 "
        "FROM {t} t",
    ),
    "presupuesto_rp": (
        "rp",
        "SELECT t.vigencia_id, 'rp', c.proyecto_id, c.area_id, t.estado, t.valor_actual, "
        "t.obligado FROM {t} t JOIN presupuesto_cdp c ON c.id = t.cdp_id",
    ),
}
_COLUMNAS = "vigencia_id, fuente, proyecto_id, area_id, estado"
_ALIAS = f"({_COLUMNAS}, v, o)"


def _aplicar(entradas: str = "", salidas: str = "") -> str:
    """One upsert of the difference: rows of `entradas` add, rows of `salidas` subtract.

    Each is a SELECT of (vigencia, source, project, area, state, amount, obligated).
    """
    partes = []
    if entradas:
        partes.append(f"SELECT {_COLUMNAS}, 1 AS n, v, o FROM ({entradas}) AS e{_ALIAS}")
    if salidas:
        partes.append(
            f"SELECT {_COLUMNAS}, -1 AS n, -v AS v, -o AS o FROM ({salidas}) AS s{_ALIAS}"
        )
    # Sorted keys: two writers touching the same cells lock them in one order.
    return (
        f"INSERT INTO {TABLA} AS c ({_COLUMNAS}, cantidad, valor, obligado) "
        f"SELECT {_COLUMNAS}, sum(n), sum(v), sum(o) FROM ({' UNION ALL '.join(partes)}) d "
        f"GROUP BY {_COLUMNAS} HAVING sum(n) <> 0 OR sum(v) <> 0 OR sum(o) <> 0 "
        f"ORDER BY {_COLUMNAS} "
        f"ON CONFLICT ({_COLUMNAS}) DO UPDATE SET cantidad = c.cantidad + EXCLUDED.cantidad, "
        "valor = c.valor + EXCLUDED.valor, obligado = c.obligado + EXCLUDED.obligado"
    )


def _filas(tabla: str, transicion: str) -> str:
    return _FUENTES[tabla][1].format(t=transicion)


# A CDP moved to another project or area takes its RPs' figures along; a project moved to
# another vigencia, its assignments'.
_MOVIDOS_CDP = (
    "FROM nuevas n JOIN viejas o ON o.id = n.id JOIN presupuesto_rp r ON r.cdp_id = n.id "
    "WHERE (n.proyecto_id, n.area_id) <> (o.proyecto_id, o.area_id)"
)
_MOVIDOS_PROYECTO = (
    "FROM nuevas n JOIN viejas o ON o.id = n.id JOIN presupuesto_asignacion a "
    "ON a.proyecto_id = n.id WHERE n.vigencia_id <> o.vigencia_id"
)
_ARRASTRES = {
    "presupuesto_cdp": _aplicar(
        "SELECT r.vigencia_id, 'rp', n.proyecto_id, n.area_id, r.estado, r.valor_actual, "
        f"r.obligado {_MOVIDOS_CDP}",
        "SELECT r.vigencia_id, 'rp', o.proyecto_id, o.area_id, r.estado, r.valor_actual, "
        f"r.obligado {_MOVIDOS_CDP}",
    ),
    "presupuesto_proyecto": _aplicar(
        f"SELECT n.vigencia_id, 'asignacion', a.proyecto_id, a.area_id, '', a.valor, 0 "
        f"{_MOVIDOS_PROYECTO}",
        f"SELECT o.vigencia_id, 'asignacion', a.proyecto_id, a.area_id, '', a.valor, 0 "
        f"{_MOVIDOS_PROYECTO}",
    ),
}


# Tables with triggers: the four sources, and those whose rows carry figures along.
TABLAS = [*_FUENTES, *(t for t in _ARRASTRES if t not in _FUENTES)]

# What each event's trigger may read (transition tables allow one event per trigger).
_REFERENCIAS = {
    "INSERT": " REFERENCING NEW TABLE AS nuevas",
    "UPDATE": " REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas",
    "DELETE": " REFERENCING OLD TABLE AS viejas",
    "TRUNCATE": "",
}


def _ramas(tabla: str) -> dict[str, str]:
    """What the table's trigger does on each event: its own figures, and what its rows carry."""
    ramas: dict[str, str] = {}
    if tabla in _FUENTES:
        ramas = {
            "INSERT": _aplicar(_filas(tabla, "nuevas")),
            "UPDATE": _aplicar(_filas(tabla, "nuevas"), _filas(tabla, "viejas")),
            "DELETE": _aplicar(salidas=_filas(tabla, "viejas")),
            "TRUNCATE": f"DELETE FROM {TABLA} WHERE fuente = '{_FUENTES[tabla][0]}'",
        }
    if tabla in _ARRASTRES:
        ramas["UPDATE"] = ";\n    ".join(filter(None, [ramas.get("UPDATE"), _ARRASTRES[tabla]]))
    return ramas


def _nombre(tabla: str) -> str:
    return f"{TABLA}_{tabla.removeprefix('presupuesto_')}"


def _funcion_y_disparadores(tabla: str) -> list[str]:
    """The table's trigger function (one branch per event) and one statement trigger per event."""
    nombre, ramas = _nombre(tabla), _ramas(tabla)
    casos = "\n  ELSIF ".join(f"TG_OP = '{e}' THEN\n    {sql};" for e, sql in ramas.items())
    sql = [
        f"""CREATE OR REPLACE FUNCTION {nombre}() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF {casos}
  END IF;
  RETURN NULL;
END $$"""
    ]
    for evento in ramas:
        disparador = f"{nombre}_{evento.lower()}"
        sql.append(f"DROP TRIGGER IF EXISTS {disparador} ON {tabla}")
        sql.append(
            f"CREATE TRIGGER {disparador} AFTER {evento} ON {tabla}{_REFERENCIAS[evento]} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {nombre}()"
        )
    return sql


def recalcular_sql() -> list[str]:
    """Empty the figures and add every source's rows again (the migration; a repair)."""
    return [f"DELETE FROM {TABLA}"] + [_aplicar(_filas(tabla, tabla)) for tabla in _FUENTES]


def instalar_sql() -> list[str]:
    """The table, the trigger functions and triggers, and the figures of the rows already there."""
    sql = [
        f"CREATE TABLE IF NOT EXISTS {TABLA} ("
        "vigencia_id bigint NOT NULL, fuente text NOT NULL, proyecto_id bigint NOT NULL, "
        "area_id bigint NOT NULL, estado text NOT NULL, cantidad bigint NOT NULL, "
        "valor numeric NOT NULL, obligado numeric NOT NULL, "
        f"PRIMARY KEY ({_COLUMNAS}))"
    ]
    for tabla in TABLAS:
        sql.extend(_funcion_y_disparadores(tabla))
    return sql + recalcular_sql()


def quitar_sql() -> list[str]:
    """The functions (their triggers go with them: CASCADE) and the table."""
    sql = [f"DROP FUNCTION IF EXISTS {_nombre(tabla)}() CASCADE" for tabla in TABLAS]
    return [*sql, f"DROP TABLE IF EXISTS {TABLA}"]


class CifraQuerySet(VisiblesQuerySet):
    def de_vigencia(self, vigencia) -> CifraQuerySet:
        return self.filter(vigencia=vigencia)


class Cifra(models.Model):
    """One cell of the kept figures (read-only; PostgreSQL's triggers write it)."""

    pk = models.CompositePrimaryKey("vigencia", "fuente", "proyecto", "area", "estado")
    vigencia = models.ForeignKey(
        "presupuesto.Vigencia", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    fuente = models.CharField(max_length=20)
    proyecto = models.ForeignKey(
        "presupuesto.Proyecto", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    area = models.ForeignKey(
        "cuentas.Area",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name="área",
    )
    estado = models.CharField(max_length=30)
    cantidad = models.BigIntegerField()
    valor = models.DecimalField(max_digits=30, decimal_places=2)
    obligado = models.DecimalField(max_digits=30, decimal_places=2)

    objects = CifraQuerySet.as_manager()

    class Meta:
        managed = False
        db_table = TABLA
        verbose_name = "cifra"
        verbose_name_plural = "cifras"

    def __str__(self) -> str:
        return f"{self.fuente} {self.estado} {self.proyecto_id}/{self.area_id}: {self.valor}"
