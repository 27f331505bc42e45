"""Session settings of every PostgreSQL connection the hub opens (short OLTP requests)."""

from __future__ import annotations

# No parallel workers: a request is a few milliseconds of work, and starting workers on a
# two-core host costs more than it saves (the million-row search: 38 ms with two workers,
# 22 ms alone). No JIT: compiling takes longer than any of these queries runs.
AJUSTES = {"max_parallel_workers_per_gather": "0", "jit": "off"}

# Database OPTIONS (hub/settings.py, HUB_SENTENCIAS_PREPARADAS; and the bench's floor):
# parameters bound by the server, so psycopg prepares a statement the fifth time a connection
# runs it and PostgreSQL stops planning it again. Planning the joins of a tool's read took
# longer than running it (issue 42, docs/rendimiento.md).
SENTENCIAS_PREPARADAS = {"server_side_binding": True, "prepare_threshold": 5}


def ajustar_sesion(sender, connection, **kwargs) -> None:
    """`connection_created` receiver: one SET per new connection, not per request.

    A SET, not libpq's `options`, so that PgBouncer in session mode passes it through.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("; ".join(f"SET {nombre} = {valor}" for nombre, valor in AJUSTES.items()))
