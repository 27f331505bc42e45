"""The oracle of the MCP fuzzing: what the interface and docs/decisiones.md promise for a body.

Written from the interface (Assistant server, Errors) and the decisions, not from the view, and
used by tests/fuzz/test_mcp_hypothesis.py to check every generated example.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import event, note

from apps.mcp.models import RegistroAuditoria
from hub.herramientas.registro import registro

URL = "/mcp/api/mcp"
# DATOS_INVALIDOS for arguments that satisfy the inputSchema, by tool and field (printed).
DENTRO_DEL_ESQUEMA: Counter[str] = Counter()

MUCHO = 1_000_000_000
CODIGOS_HERRAMIENTA = {
    "SIN_IDENTIDAD",
    "SIN_PERMISO",
    "NO_ENCONTRADO",
    "SESION_EXPIRADA",
    "FALTA_VERIFICACION",
    "DEMASIADOS_INTENTOS",
    "ESCRITURA_DESHABILITADA",
    "RATE_LIMIT",
    "DATOS_INVALIDOS",
    "SERVICIO_NO_DISPONIBLE",
    "CONFIRMACION_INVALIDA",
    "CONFIRMACION_VENCIDA",
    "CONFIRMACION_USADA",
    "CONFIRMACION_AJENA",
    "CONFIRMACION_NO_COINCIDE",
}
# Statements a read may run: the audit row and the credentials' last use (docs/contrato.md).
_ESCRITURA = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)
_ESCRITURAS_PERMITIDAS = re.compile(
    r'^\s*(INSERT INTO "mcp_registroauditoria"'
    r'|UPDATE "mcp_(tokenpersonal|claveapi)" SET "ultimo_uso")',
    re.IGNORECASE,
)


def _entero(_checker, valor: Any) -> bool:
    return isinstance(valor, int) and not isinstance(valor, bool)


# JSON Schema 2020-12 counts 5.0 as an integer; the hub does not (docs/decisiones/http.md,
# "Tipos JSON estrictos", and docs/decisiones/codigo.md), as it does not for a JSON-RPC id.
ValidadorEstricto = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _entero),
)


@dataclass
class Organizacion:
    """The demo organization, the credentials of `completo` and the fuzzing bookkeeping."""

    client: Any
    demo: dict[str, Any]
    cabeceras: dict[str, str]
    secretos: list[str]
    semillas: dict[str, list[str]]
    tablas: list[str]
    validadores: dict[str, Any] = field(default_factory=dict)

    def conteos(self) -> dict[str, int]:
        """Rows of every table, in one query."""
        qn = connection.ops.quote_name
        sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {qn(t)})" for t in self.tablas)
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return dict(zip(self.tablas, cursor.fetchone(), strict=True))


def publicar(org: Organizacion, cuerpo: bytes, cabeceras: dict[str, str] | None = None, **extra):
    """POST one raw body, by default with the credentials of `completo`."""
    opciones = {"content_type": "application/json", **extra}
    cabeceras = org.cabeceras if cabeceras is None else cabeceras
    return org.client.post(URL, data=cuerpo, headers=cabeceras, **opciones)


def codificar(valor: Any) -> bytes:
    """JSON text of any value; lone surrogates go out escaped as \\udxxx."""
    return json.dumps(valor, ensure_ascii=True, allow_nan=True).encode("ascii")


def llamada_rpc(id_: Any, nombre: Any, argumentos: Any) -> dict:
    """A tools/call request."""
    return {
        "jsonrpc": "2.0",
        "id": id_,
        "method": "tools/call",
        "params": {"name": nombre, "arguments": argumentos},
    }


# --- the oracle ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Esperado:
    """What the interface promises for one body sent with good credentials."""

    nivel: str  # "error", "resultado" or "notificacion"
    codigo: int | None = None
    id: Any = None
    metodo: str | None = None
    params: Any = None
    audita: bool = False
    tolera_32700: bool = False  # deep nesting: the server may give up before the oracle does


class _NoEsJson(Exception):
    pass


def _constante(valor: str) -> Any:
    raise _NoEsJson(valor)  # NaN, Infinity and -Infinity are not JSON (RFC 8259)


def _finito(texto: str) -> float:
    valor = float(texto)
    if math.isinf(valor):
        raise _NoEsJson(texto)  # docs/decisiones/http.md, "Entradas hostiles"
    return valor


def _profundidad_y_sustitutos(valor: Any) -> tuple[int, bool]:
    pila, maxima, sustituto = [(valor, 1)], 0, False
    while pila:
        actual, nivel = pila.pop()
        maxima = max(maxima, nivel)
        if isinstance(actual, str):
            sustituto = sustituto or any(0xD800 <= ord(c) <= 0xDFFF for c in actual)
        elif isinstance(actual, dict):
            pila.extend((k, nivel + 1) for k in actual)
            pila.extend((v, nivel + 1) for v in actual.values())
        elif isinstance(actual, list):
            pila.extend((v, nivel + 1) for v in actual)
    return maxima, sustituto


def _fuera_de_los_argumentos(mensaje: Any) -> Any:
    """The message with the arguments object of a tools/call emptied (the tool judges it)."""
    try:
        if mensaje["method"] == "tools/call" and isinstance(mensaje["params"]["arguments"], dict):
            return {**mensaje, "params": {**mensaje["params"], "arguments": {}}}
    except (KeyError, TypeError, IndexError):
        pass
    return mensaje


def _id_valido(valor: Any) -> bool:
    return isinstance(valor, str) or (isinstance(valor, int) and not isinstance(valor, bool))


def esperar(cuerpo: bytes) -> Esperado:
    """The answer the interface promises for this body."""
    try:
        texto = cuerpo.decode("utf-8")
        if not texto.strip():
            raise _NoEsJson("vacío")
        mensaje = json.loads(texto, parse_constant=_constante, parse_float=_finito)
    except (UnicodeDecodeError, ValueError, RecursionError, _NoEsJson):
        return Esperado("error", -32700)
    profundidad, _ = _profundidad_y_sustitutos(mensaje)
    if _profundidad_y_sustitutos(_fuera_de_los_argumentos(mensaje))[1]:
        # Not storable nor answerable in UTF-8 (decisiones); in a tool's arguments, that tool's
        # DATOS_INVALIDOS instead (_comprobar_herramienta).
        return Esperado("error", -32700)
    esperado = esperar_mensaje(mensaje)
    if profundidad >= 100:
        return Esperado(**{**esperado.__dict__, "tolera_32700": True})
    return esperado


def esperar_mensaje(mensaje: Any) -> Esperado:
    """JSON-RPC 2.0 as restricted by MCP 2025-06-18 and docs/decisiones/asistente.md, "Mensajes"."""
    if not isinstance(mensaje, dict):
        return Esperado("error", -32600)  # batches and scalars
    id_eco = mensaje.get("id") if _id_valido(mensaje.get("id")) else None
    if mensaje.get("jsonrpc") != "2.0":
        return Esperado("error", -32600, id_eco)
    if "id" in mensaje and not _id_valido(mensaje["id"]):
        return Esperado("error", -32600)
    if not isinstance(mensaje.get("method"), str):
        return Esperado("error", -32600, id_eco)
    if "id" not in mensaje:
        return Esperado("notificacion")
    id_, metodo = mensaje["id"], mensaje["method"]
    if "params" in mensaje and not isinstance(mensaje["params"], dict):
        return Esperado("error", -32602, id_)
    if metodo not in ("initialize", "ping", "tools/list", "tools/call"):
        return Esperado("error", -32601, id_)
    params = mensaje.get("params") or {}
    if metodo != "tools/call":
        return Esperado("resultado", id=id_, metodo=metodo, params=params)
    nombre, argumentos = params.get("name"), params.get("arguments", {})
    if (
        not isinstance(nombre, str)
        or not nombre
        or not isinstance(argumentos, dict)
        or nombre not in registro
    ):
        return Esperado("error", -32602, id_, metodo, params, audita=True)
    return Esperado("resultado", id=id_, metodo=metodo, params=params, audita=True)


def _mismo(a: Any, b: Any) -> bool:
    """Equal JSON values with equal JSON types (1 is not true, 1 is not 1.0)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_mismo(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_mismo, a, b))
    return type(a) is type(b) and a == b


def comprobar_sobre(http, status: int, code: str | None = None) -> dict:
    """An HTTP envelope error (the only answers outside JSON-RPC besides the 202)."""
    assert http.status_code == status, (http.status_code, http.content[:500])
    assert http["Content-Type"] == "application/json"
    cuerpo = json.loads(http.content)
    assert cuerpo["success"] is False and "data" not in cuerpo
    assert isinstance(cuerpo["message"], str)
    assert isinstance(cuerpo["error"]["detalle"], str) and cuerpo["error"]["detalle"]
    if code is not None:
        assert cuerpo["error"]["code"] == code, cuerpo
    if status == 401:
        assert http["WWW-Authenticate"].startswith("Bearer")
    if status == 429:
        assert http["Retry-After"].isdigit()
    return cuerpo


def enviar_y_comprobar(
    org: Organizacion, cuerpo: bytes, *, intenta: str | None = None
) -> tuple[Esperado, Any]:
    """Send one body with good credentials and check everything the oracle promises.

    `intenta` names a table the call may try to insert into inside a savepoint that is rolled
    back (a replayed confirmation); the row counts still prove that nothing stayed.
    """
    esperado = esperar(cuerpo)
    note(f"esperado: {esperado}")
    antes = org.conteos()
    with CaptureQueriesContext(connection) as consultas:
        http = publicar(org, cuerpo)
    despues = org.conteos()
    assert http.status_code < 500, http.content[:500]
    assert "Mcp-Session-Id" not in http
    assert http["X-RateLimit-Limit"] == str(MUCHO)  # past the credential check: always counted

    escritas = [q["sql"] for q in consultas.captured_queries if _ESCRITURA.match(q["sql"])]
    ajenas = [
        sql
        for sql in escritas
        if not _ESCRITURAS_PERMITIDAS.match(sql)
        and not (intenta and sql.startswith(f'INSERT INTO "{intenta}"'))
    ]
    assert not ajenas, ajenas
    auditoria = RegistroAuditoria._meta.db_table
    nuevas = despues.pop(auditoria) - antes.pop(auditoria)
    assert despues == antes, {t: (antes[t], despues[t]) for t in antes if antes[t] != despues[t]}
    assert nuevas == (1 if esperado.audita else 0)

    if esperado.nivel == "notificacion":
        assert http.status_code == 202 and http.content == b""
        assert "Content-Type" not in http
        event("nivel: 202")
        return esperado, None
    assert http.status_code == 200, http.content[:500]
    assert http["Content-Type"] == "application/json"
    respuesta = json.loads(http.content)
    assert respuesta["jsonrpc"] == "2.0"
    assert _mismo(respuesta["id"], esperado.id), (respuesta["id"], esperado.id)
    if esperado.tolera_32700 and "error" in respuesta and respuesta["error"]["code"] == -32700:
        assert set(respuesta) == {"jsonrpc", "id", "error"}
        event("nivel: -32700 (anidamiento)")
        return esperado, respuesta
    if esperado.nivel == "error":
        assert set(respuesta) == {"jsonrpc", "id", "error"}, respuesta
        error = respuesta["error"]
        assert set(error) <= {"code", "message", "data"}
        assert error["code"] == esperado.codigo, (error, esperado)
        assert isinstance(error["message"], str) and error["message"]
        event(f"nivel: {esperado.codigo}")
    else:
        assert set(respuesta) == {"jsonrpc", "id", "result"}, respuesta
        _comprobar_resultado(org, esperado, respuesta["result"])
    if esperado.audita:
        _comprobar_auditoria(org, esperado, respuesta)
    return esperado, respuesta


def _comprobar_resultado(org: Organizacion, esperado: Esperado, resultado: Any) -> None:
    assert isinstance(resultado, dict)
    if esperado.metodo == "ping":
        assert resultado == {}
    elif esperado.metodo == "initialize":
        assert set(resultado) == {"protocolVersion", "capabilities", "serverInfo", "instructions"}
        pedida = esperado.params.get("protocolVersion")
        soportada = isinstance(pedida, str) and pedida in ("2025-06-18", "2025-03-26")
        assert resultado["protocolVersion"] == (pedida if soportada else "2025-06-18")
    elif esperado.metodo == "tools/list":
        assert [h["name"] for h in resultado["tools"]] == [h.nombre for h in registro]
    else:
        _comprobar_herramienta(org, esperado.params, resultado)
    event(f"nivel: resultado de {esperado.metodo}")


def _comprobar_herramienta(org: Organizacion, params: dict, resultado: dict) -> None:
    """A tool result: two texts, isError, structuredContent; DATOS_INVALIDOS when the arguments
    break the published inputSchema; never ERROR_INTERNO (a tool that crashed)."""
    nombre, argumentos = params["name"], params.get("arguments", {})
    assert set(resultado) == {"content", "isError", "structuredContent"}, resultado
    resumen, texto = resultado["content"]
    assert resumen["type"] == texto["type"] == "text"
    assert isinstance(resumen["text"], str) and resumen["text"]
    datos = resultado["structuredContent"]
    assert isinstance(datos, dict) and json.loads(texto["text"]) == datos
    valido = org.validadores[nombre].is_valid(argumentos)
    # Success or error: the tool's outputSchema accepts it (clients validate errors too).
    jsonschema.validate(datos, registro.obtener(nombre).esquema_salida)
    if not resultado["isError"]:
        assert valido, f"{nombre} aceptó argumentos fuera de su inputSchema: {argumentos!r}"
        event(f"{nombre}: ok")
        return
    codigo = datos["codigo"]
    assert codigo != "ERROR_INTERNO", (nombre, argumentos)
    assert codigo in CODIGOS_HERRAMIENTA, codigo
    assert datos["mensaje"] == resumen["text"]
    if _profundidad_y_sustitutos(argumentos)[1]:
        # Not text in UTF-8, whatever the schema says about the field (docs/decisiones.md).
        assert codigo == "DATOS_INVALIDOS", (nombre, argumentos, datos)
        event(f"{nombre}: DATOS_INVALIDOS (sustitutos)")
        return
    if not valido:
        assert codigo == "DATOS_INVALIDOS", (nombre, argumentos, datos)
    if codigo == "DATOS_INVALIDOS":
        campos = datos["campos"]
        assert campos and all(
            isinstance(p, list) and all(isinstance(t, str) for t in p) for p in campos.values()
        )
    if valido and codigo == "DATOS_INVALIDOS":  # rules a JSON Schema cannot say
        DENTRO_DEL_ESQUEMA[f"{nombre}: {sorted(datos['campos'])}"] += 1
    else:
        event(f"{nombre}: {codigo}{'' if valido else ' (fuera del esquema)'}")


def _comprobar_auditoria(org: Organizacion, esperado: Esperado, respuesta: dict) -> None:
    """The one new audit row names the tool and the outcome, and keeps no secret."""
    fila = RegistroAuditoria.objects.order_by("-id").first()
    nombre = esperado.params.get("name")
    if isinstance(nombre, str) and nombre in registro:
        assert fila.herramienta == nombre
    else:  # whatever was received, kept short and printable
        assert len(fila.herramienta) <= 80 and "\x00" not in fila.herramienta
    assert fila.usuario.username == "completo"
    assert fila.credencial == RegistroAuditoria.TipoCredencial.CLAVE_Y_TOKEN
    if "error" in respuesta:
        assert fila.resultado == "PARAMETROS_INVALIDOS"
    else:
        resultado = respuesta["result"]
        esperado_fila = resultado["structuredContent"]["codigo"] if resultado["isError"] else "ok"
        assert fila.resultado == esperado_fila
    guardado = json.dumps(fila.argumentos, ensure_ascii=False)
    assert '"token_confirmacion"' not in guardado
    for secreto in org.secretos:
        assert secreto not in guardado
