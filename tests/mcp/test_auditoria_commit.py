"""How an audit row commits: a read-only tool's row without waiting for the disk on PostgreSQL,
a write tool's row in its write's own (durable) transaction. Real transactions, as in a server."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.mcp.models import RegistroAuditoria
from tests.mcp_cliente import llamar

pytestmark = pytest.mark.django_db(transaction=True)

ASINCRONO = "SET LOCAL synchronous_commit TO OFF"


def _sentencias(client, nombre: str, argumentos: dict, cabeceras: dict) -> list[str]:
    with CaptureQueriesContext(connection) as consultas:
        llamar(client, nombre, argumentos, **cabeceras)
    return [q["sql"] for q in consultas.captured_queries]


def test_a_read_tools_row_is_recorded_without_waiting_for_the_disk(
    client, como_completo, herramientas_prueba
):
    antes = RegistroAuditoria.objects.count()
    sentencias = _sentencias(client, "prueba_eco", {"texto": "hola"}, como_completo)
    assert RegistroAuditoria.objects.count() == antes + 1
    insercion = next(s for s in sentencias if "INSERT" in s and "mcp_registro" in s)
    if connection.vendor == "postgresql":
        # One round trip (issue 42): the setting and the row in one simple query, one implicit
        # transaction that commits as the query ends.
        assert insercion.startswith(f"{ASINCRONO}; INSERT")
        assert not any(s.startswith(ASINCRONO) and "INSERT" not in s for s in sentencias)
    else:  # SQLite has no such setting: the row commits as it always did
        assert not any(ASINCRONO in s for s in sentencias)


def test_a_read_tools_row_is_committed_and_the_setting_does_not_outlive_it(
    client, como_completo, herramientas_prueba
):
    llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    fila = RegistroAuditoria.objects.order_by("-id").first()
    assert fila.herramienta == "prueba_eco" and fila.argumentos == {"texto": "hola"}
    otra = connection.copy()  # another session sees it: committed, not pending
    try:
        with otra.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM mcp_registroauditoria WHERE id = %s", [fila.pk])
            assert cursor.fetchone() == (1,)
    finally:
        otra.close()
    if connection.vendor == "postgresql":
        # SET LOCAL ended with that implicit transaction: a write's commit still waits.
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone() == ("on",)


def test_a_write_tools_row_commits_with_its_write_waiting_for_the_disk(
    client, como_completo, herramientas_prueba
):
    previa = llamar(client, "prueba_grupo", {"nombre": "Grupo durable"}, **como_completo)
    confirmar = {
        "nombre": "Grupo durable",
        "confirmar": True,
        "token_confirmacion": previa.estructura["token_confirmacion"],
    }
    sentencias = _sentencias(client, "prueba_grupo", confirmar, como_completo)
    assert RegistroAuditoria.objects.filter(herramienta="prueba_grupo", resultado="ok").exists()
    assert not any(ASINCRONO in s for s in sentencias)


def test_the_rows_insert_is_the_one_the_orm_compiles(completo):
    """The one-round-trip INSERT has the columns, placeholders and prepared values of the ORM's
    own insert compiler, for a row with every kind of field filled in."""
    from django.db.models.sql import InsertQuery

    from apps.mcp import auditoria

    def fila() -> RegistroAuditoria:
        return RegistroAuditoria(
            usuario=completo,
            token_prefijo="hubt_abc",
            cliente_id=7,
            cliente_nombre="Cliente «7»",
            credencial=RegistroAuditoria.TipoCredencial.CLAVE_Y_TOKEN,
            ip="2001:db8::1",
            herramienta="estado_solicitud",
            argumentos={"numero_radicado": "SOL-1", "n": 3, "lista": [1.5, None, True]},
            resultado="ok",
            objeto={"tipo": "comentario", "texto": "t", "enlace": "/x"},
            duracion_ms=12,
            request_id="r" * 32,
            request_id_recibido="externo",
        )

    campos = [f for f in RegistroAuditoria._meta.local_concrete_fields if not f.primary_key]
    assert list(auditoria._CAMPOS_INSERTADOS) == campos
    assert not any(hasattr(f, "get_placeholder") for f in campos)
    orm, nuestra = fila(), fila()
    nuestra.creado = orm.creado
    consulta = InsertQuery(RegistroAuditoria)
    consulta.insert_values(campos, [orm])
    [(sql, parametros)] = consulta.get_compiler(connection=connection).as_sql()
    valores = auditoria._valores(nuestra)
    columna = connection.ops.quote_name("id")
    assert auditoria._sql_insercion(connection.ops.quote_name) == (
        f"{auditoria._SIN_ESPERAR_DISCO}{sql} RETURNING {columna}"
    )
    if connection.vendor == "postgresql":  # psycopg's JSON adapters compare by their SQL text
        assert connection.ops.compose_sql(sql, valores) == connection.ops.compose_sql(
            sql, parametros
        )
    else:
        assert valores == list(parametros)
