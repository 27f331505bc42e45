"""The floor of a tool call (issue 42): what `tools/call estado_solicitud` must do at least.

One Redis round trip (the shared limit, bench/limite/suelo.py), one indexed SELECT of the
request by its number, one committed INSERT of an audit row into the hub's own audit table (its
indexes maintained, committed without waiting for the disk as the hub commits a read's row), and
a JSON-RPC tool result. A plain Django view on the bench's database with the hub's connection
settings (persistent, health-checked); no middleware, no ORM, no visibility rule: what separates
a tool's row from this one is the hub's own work (docs/rendimiento.md).
"""

from __future__ import annotations

import json

import psycopg
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from bench.limite.suelo import LIMITE, contar

_SELECT = (
    "SELECT id, numero_radicado, estado, resumen, fecha_actualizacion "
    "FROM solicitudes_solicitud WHERE numero_radicado = %s"
)
# The audit row as the hub writes it for a read (apps/mcp/auditoria.py): one simple query.
_INSERT = (
    "SET LOCAL synchronous_commit TO OFF; "
    "INSERT INTO mcp_registroauditoria (creado, token_prefijo, credencial, ip, herramienta, "
    "argumentos, resultado, duracion_ms, request_id, request_id_recibido, cliente_nombre, "
    "objeto) VALUES (%s, '', 'clave_y_token', %s, 'suelo_herramienta', %s::jsonb, 'ok', 0, "
    "'', '', '', '{}'::jsonb)"
)


def _error(id_: object, codigo: int, status: int = 200) -> JsonResponse:
    return JsonResponse({"jsonrpc": "2.0", "id": id_, "error": {"code": codigo}}, status=status)


@csrf_exempt
def vista_suelo_herramienta(request: HttpRequest) -> HttpResponse:
    """Count the limit, read the request by number, write the row, answer the tool result."""
    if request.method != "POST":
        return HttpResponse(status=405)
    try:
        mensaje = json.loads(request.body)
        argumentos = mensaje["params"]["arguments"]
        numero = str(argumentos["numero_radicado"])
    except (ValueError, KeyError, TypeError):
        return _error(None, -32602)
    if contar(request) > LIMITE:
        return _error(mensaje.get("id"), -32000, status=429)
    with connection.cursor() as cursor:
        cursor.execute(_SELECT, [numero])
        fila = cursor.fetchone()
    # The row's two statements in one simple query, through a client-side cursor as the hub
    # sends them (its other statements bind server-side).
    with psycopg.ClientCursor(connection.connection) as cursor:
        cursor.execute(
            _INSERT,
            [timezone.now(), request.META.get("REMOTE_ADDR"), json.dumps(argumentos)],
        )
    if fila is None:
        datos: dict = {"encontrado": False}
    else:
        datos = {
            "numero_radicado": fila[1],
            "id_solicitud": fila[0],
            "estado": fila[2],
            "resumen": fila[3],
            "fecha_actualizacion": fila[4].isoformat(),
            "encontrado": True,
        }
    texto = json.dumps(datos, ensure_ascii=False)
    resultado = {
        "content": [{"type": "text", "text": texto}, {"type": "text", "text": texto}],
        "isError": fila is None,
        "structuredContent": datos,
    }
    return JsonResponse(
        {"jsonrpc": "2.0", "id": mensaje.get("id"), "result": resultado},
        json_dumps_params={"separators": (",", ":"), "ensure_ascii": False},  # as the hub's
    )
