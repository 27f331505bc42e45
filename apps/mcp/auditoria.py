"""The audit row of each tools/call (docs/decisiones/asistente.md): no secrets, long texts cut."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import psycopg
from django.db import connection

from apps.mcp import credenciales
from apps.mcp.credenciales import Identidad
from apps.mcp.models import RegistroAuditoria
from hub.busqueda.texto import recortar
from hub.observabilidad import metricas
from hub.observabilidad.logs import request_id_actual, request_id_recibido_actual

SECRETOS = frozenset({"token_confirmacion"})
# Written beside the arguments of a write the person approved on the hub (issue 40).
APROBADA_EN_EL_HUB = "aprobada_en_el_hub"
MAX_TEXTO = 200
MAX_ELEMENTOS = 30
MAX_PROFUNDIDAD = 4


@functools.cache
def _credencial(prefijos: tuple[str, ...]) -> re.Pattern[str]:
    """A secret of any of these prefixes: what follows the prefix is hidden."""
    return re.compile("(" + "|".join(re.escape(p) for p in prefijos) + ")[0-9A-Za-z]{8,}")


def _texto(valor: str, maximo: int) -> str:
    """Secrets masked, invisible characters removed (PostgreSQL refuses NUL), cut to `maximo`."""
    # A key or token pasted into an argument by mistake is still a secret: keep only its prefix.
    # The prefixes are those of every kind in the credential table (OAuth's joins at start).
    patron = _credencial(credenciales.prefijos())
    return recortar(patron.sub(r"\1[oculto]", valor), maximo)


def limpiar_argumentos(valor: Any, profundidad: int = 0) -> Any:
    """A copy safe to keep: no secrets, texts cut, bounded size and depth."""
    if isinstance(valor, dict):
        if profundidad >= MAX_PROFUNDIDAD:
            return "…"
        limpio = {}
        for k, v in list(valor.items())[:MAX_ELEMENTOS]:
            clave = _texto(str(k), 60)  # keys are text people typed too
            if clave not in SECRETOS:
                limpio[clave] = limpiar_argumentos(v, profundidad + 1)
        return limpio
    if isinstance(valor, list | tuple):
        if profundidad >= MAX_PROFUNDIDAD:
            return "…"
        return [limpiar_argumentos(v, profundidad + 1) for v in valor[:MAX_ELEMENTOS]]
    if isinstance(valor, str):
        return _texto(valor, MAX_TEXTO)
    if valor is None or isinstance(valor, bool | int | float):
        return valor
    return recortar(str(valor), MAX_TEXTO)


@metricas.fallos_de_auditoria
def registrar(
    *,
    identidad: Identidad,
    herramienta: str,
    argumentos: Any,
    resultado: str,
    duracion_ms: int,
    aprobada_en_el_hub: bool = False,
    objeto: dict[str, str] | None = None,
) -> RegistroAuditoria:
    """Insert the row; an exception here must fail the call (the caller rolls back).

    Outside a transaction (a read-only tool's row) on PostgreSQL, the commit does not wait for
    the disk: the row is in the server at once, and only a crash of PostgreSQL or its machine
    within ~3 × wal_writer_delay (600 ms by default) could lose it (docs/decisiones/asistente.md).
    A write tool's row commits with its write, waiting for the disk as the write does.
    """
    campos = _campos(
        identidad, herramienta, argumentos, resultado, duracion_ms, aprobada_en_el_hub, objeto
    )
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        fila = RegistroAuditoria(**campos)
        _insertar_sin_esperar_disco(fila)
        return fila
    return RegistroAuditoria.objects.create(**campos)


# One query string, one round trip: PostgreSQL runs a multi-statement simple query as one
# implicit transaction, in which SET LOCAL holds until its commit (BEGIN, SET LOCAL, INSERT and
# COMMIT were four round trips and Django's atomic block around them).
_SIN_ESPERAR_DISCO = "SET LOCAL synchronous_commit TO OFF; "


def _insertar_sin_esperar_disco(fila: RegistroAuditoria) -> None:
    """INSERT the row with every value as the ORM prepares it, committed at once without waiting
    for the disk; `fila.pk` is set from RETURNING."""
    sql = _sql_insercion(connection.ops.quote_name)
    with _cursor_de_cliente() as cursor:
        cursor.execute(sql, _valores(fila))
        cursor.nextset()  # past the SET, to the INSERT's RETURNING
        fila.pk = cursor.fetchone()[0]
    fila._state.adding = False
    fila._state.db = connection.alias


def _cursor_de_cliente():
    """A cursor that binds client-side (psycopg's ClientCursor), in Django's wrapper (query
    logging, execute wrappers): its string goes out as a simple query, where several statements
    are allowed. The hub's own cursors may bind server-side (HUB_SENTENCIAS_PREPARADAS), and a
    statement with server-side parameters is one statement."""
    connection.ensure_connection()
    crudo = psycopg.ClientCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(crudo)
    return connection.make_cursor(crudo)


# The columns the row is inserted with: every concrete field but the serial id (from code).
_CAMPOS_INSERTADOS = tuple(
    f for f in RegistroAuditoria._meta.local_concrete_fields if not f.primary_key
)


def _valores(fila: RegistroAuditoria) -> list[Any]:
    """The row's values as the ORM's insert compiler prepares them for one plain row."""
    # `pre_save(add=True)`, then `get_db_prep_save`, per field, each behind a plain %s: none of
    # these fields has a placeholder of its own (tests/mcp/test_auditoria_commit.py compares the
    # statement and values with the compiler's). Compiling an InsertQuery per call cost about as
    # much CPU as the rest of the row's work together.
    return [
        f.get_db_prep_save(f.pre_save(fila, True), connection=connection)
        for f in _CAMPOS_INSERTADOS
    ]


@functools.cache  # the same text for every row: it depends only on the model and the quoting
def _sql_insercion(nombre: Callable[[str], str]) -> str:
    """The one-round-trip statement: the setting, then the INSERT of `_CAMPOS_INSERTADOS`."""
    opciones = RegistroAuditoria._meta
    columnas = ", ".join(nombre(f.column) for f in _CAMPOS_INSERTADOS)
    marcas = ", ".join(["%s"] * len(_CAMPOS_INSERTADOS))
    # Only the model's own table and column names, quoted; every value goes as a parameter.
    return (
        f"{_SIN_ESPERAR_DISCO}INSERT INTO {nombre(opciones.db_table)} ({columnas}) "  # noqa: S608
        f"VALUES ({marcas}) RETURNING {nombre(opciones.pk.column)}"
    )


def objeto_escrito(objeto: dict[str, str] | None) -> dict[str, str]:
    """What a write created, as the row keeps it: three short texts, a relative link only."""
    if not isinstance(objeto, dict):
        return {}
    limpio = {k: _texto(str(objeto.get(k) or ""), 200) for k in ("tipo", "texto", "enlace")}
    if not limpio["enlace"].startswith("/") or limpio["enlace"].startswith("//"):
        limpio["enlace"] = ""  # only a page of this service is linked
    return limpio if limpio["texto"] else {}


def _campos(
    identidad: Identidad,
    herramienta: str,
    argumentos: Any,
    resultado: str,
    duracion_ms: int,
    aprobada_en_el_hub: bool,
    objeto: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The row's fields."""
    limpios = limpiar_argumentos(argumentos) if isinstance(argumentos, dict) else {}
    # The key is the hub's, never the caller's: one sent as an argument is dropped.
    limpios.pop(APROBADA_EN_EL_HUB, None)
    if aprobada_en_el_hub:
        limpios[APROBADA_EN_EL_HUB] = True
    return dict(
        usuario=identidad.usuario,
        clave=identidad.clave,
        token_prefijo=identidad.token.prefijo if identidad.token is not None else "",
        cliente_id=identidad.oauth.aplicacion.pk if identidad.oauth is not None else None,
        cliente_nombre=(
            identidad.oauth.aplicacion.nombre_visible if identidad.oauth is not None else ""
        ),
        credencial=identidad.tipo_credencial,
        ip=identidad.ip,
        herramienta=_texto(str(herramienta), 80),
        argumentos=limpios,
        resultado=resultado[:40],
        objeto=objeto_escrito(objeto),
        duracion_ms=max(0, duracion_ms),
        request_id=request_id_actual(),
        request_id_recibido=request_id_recibido_actual(),
    )
