"""Calling the assistant in tests: JSON-RPC messages to the endpoint and checks of tool results."""

from __future__ import annotations

import functools
import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import connection, connections
from django.test import RequestFactory

from apps.mcp import credenciales
from apps.mcp.credenciales import Identidad
from apps.mcp.models import AjustesAsistente
from hub.http.respuestas import ErrorAPI

URL = "/mcp/api/mcp"
_ids = itertools.count(1)


@dataclass
class Respuesta:
    """An HTTP answer of the endpoint with its JSON body (if any)."""

    http: Any
    cuerpo: Any = field(default=None)
    herramienta: str | None = None  # the tool of a tools/call sent with `llamar`

    @property
    def status(self) -> int:
        return self.http.status_code

    @property
    def resultado(self) -> dict:
        assert self.status == 200, self.http.content
        assert "error" not in self.cuerpo, self.cuerpo
        return self.cuerpo["result"]

    @property
    def estructura(self) -> dict:
        return self.resultado["structuredContent"]


def enviar(client, cuerpo: Any, *, crudo: bool = False, **cabeceras: str) -> Respuesta:
    """POST one message (a dict, or raw text/bytes with crudo=True)."""
    datos = cuerpo if crudo else json.dumps(cuerpo)
    opciones = {"content_type": cabeceras.pop("content_type", "application/json")}
    if "REMOTE_ADDR" in cabeceras:
        opciones["REMOTE_ADDR"] = cabeceras.pop("REMOTE_ADDR")
    http = client.post(URL, data=datos, headers=cabeceras, **opciones)
    contenido = http.content
    return Respuesta(http, json.loads(contenido) if contenido else None)


def rpc(client, metodo: str, params: dict | None = None, **cabeceras: str) -> Respuesta:
    mensaje: dict[str, Any] = {"jsonrpc": "2.0", "id": next(_ids), "method": metodo}
    if params is not None:
        mensaje["params"] = params
    return enviar(client, mensaje, **cabeceras)


def cumple_esquema(datos: Any, esquema: dict) -> None:
    """`datos` satisfies the outputSchema as clients check it: draft-07 with formats (the
    TypeScript SDK 1.x, with Ajv) and 2020-12 (the Python SDK). Raises ValidationError."""
    import jsonschema

    for validador_esquema in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator):
        validador_esquema.check_schema(esquema)
        validador_esquema(esquema, format_checker=validador_esquema.FORMAT_CHECKER).validate(datos)


def esquema_de(nombre: str) -> dict:
    """The outputSchema the tool declares in tools/list."""
    from hub.herramientas.registro import registro as registro_herramientas

    return registro_herramientas.obtener(nombre).esquema_salida


def resultado_valido(r: Respuesta, nombre: str, *, decimales: bool = False) -> dict:
    """A successful tool result: its structuredContent satisfies the tool's own outputSchema
    (`cumple_esquema`) and content[1] carries the same data as JSON text. Returns the
    structuredContent; with `decimales`, read from the body with every number an exact Decimal."""
    resultado = r.resultado
    assert resultado["isError"] is False, resultado
    datos = resultado["structuredContent"]
    cumple_esquema(datos, esquema_de(nombre))
    if not decimales:
        assert json.loads(resultado["content"][1]["text"]) == datos
        return datos
    cuerpo = json.loads(r.http.content, parse_float=Decimal)["result"]
    assert (
        json.loads(cuerpo["content"][1]["text"], parse_float=Decimal) == cuerpo["structuredContent"]
    )
    return cuerpo["structuredContent"]


def validador(nombre: str, *, decimales: bool = False) -> Callable[[Respuesta], dict]:
    """`resultado_valido` for one tool, for a test module's `_valida`."""
    return functools.partial(resultado_valido, nombre=nombre, decimales=decimales)


def error_herramienta(r: Respuesta, codigo: str) -> dict:
    """A tool error with this `codigo`: the message as text, then the same data as JSON text.

    Returns the structuredContent (codigo, mensaje and what the error adds).
    """
    resultado = r.resultado
    assert resultado["isError"] is True, resultado
    datos = resultado["structuredContent"]
    assert datos["codigo"] == codigo
    assert [c["type"] for c in resultado["content"]] == ["text", "text"]
    assert resultado["content"][0]["text"] == datos["mensaje"]
    assert json.loads(resultado["content"][1]["text"]) == datos
    if r.herramienta is not None:
        error_cumple_esquema(datos, r.herramienta)
    return datos


def error_cumple_esquema(datos: dict, nombre: str) -> None:
    """A tool error satisfies the tool's outputSchema (`cumple_esquema`), and every field it
    carries is one its error member declares (the member is open for clients, not for us)."""
    esquema = esquema_de(nombre)
    cumple_esquema(datos, esquema)
    declarados = esquema["anyOf"][-1]["properties"]
    assert set(datos) <= set(declarados), (nombre, sorted(set(datos) - set(declarados)))


def no_encontrado_igual(
    consultar: Callable[[str], Respuesta], ajeno: str, inexistente: str
) -> dict:
    """The NO_ENCONTRADO for a number the caller may not see, the same as for a missing one."""
    error = error_herramienta(consultar(ajeno), "NO_ENCONTRADO")
    assert error == error_herramienta(consultar(inexistente), "NO_ENCONTRADO")
    return error


def llamar(client, nombre: str, argumentos: Any = None, **cabeceras: str) -> Respuesta:
    params: dict[str, Any] = {"name": nombre}
    if argumentos is not None:
        params["arguments"] = argumentos
    respuesta = rpc(client, "tools/call", params, **cabeceras)
    respuesta.herramienta = nombre
    return respuesta


def ajustar(**valores) -> AjustesAsistente:
    """Change the assistant settings as an administrator would."""
    ajustes = AjustesAsistente.cargar()
    for nombre, valor in valores.items():
        setattr(ajustes, nombre, valor)
    ajustes.save()
    return AjustesAsistente.cargar()


# What the endpoint answers an OAuth access token it refuses
# (apps.autorizacion.credencial.INVALIDO).
OAUTH_INVALIDO = (401, "TOKEN_MCP_INVALIDO", "El token OAuth no es válido, venció o fue revocado.")


def identificar(secreto: str) -> Identidad:
    """Whom the MCP endpoint takes `Authorization: Bearer <secreto>` for: the credential table's
    own resolution (`credenciales.identificar`, the decision `admitir` makes, without the limits);
    ErrorAPI when refused."""
    peticion = RequestFactory().post(URL, HTTP_AUTHORIZATION=f"Bearer {secreto}")
    return credenciales.identificar(peticion, AjustesAsistente.cargar())


def rechazo(secreto: str) -> tuple[int, str, str] | None:
    """(status, code, detalle) of the endpoint's refusal of this bearer value; None if admitted."""
    try:
        identificar(secreto)
    except ErrorAPI as error:
        return error.status, error.code, error.detalle
    return None


# --- the demo organization (`manage.py demo_data`) -------------------------------------------


def cargar_demo(tmp_path, escala: int = 1) -> dict:
    """Load the demo organization; returns what demo_data writes (credentials, numbers)."""
    from django.core.management import call_command

    salida = tmp_path / f"demo-{escala}.json"
    call_command("demo_data", escala=escala, salida=str(salida))
    return json.loads(salida.read_text())


def a_la_vez(funciones: list[Callable[[], str]]) -> list[str]:
    """Each function in its own thread and connection, released together; their answers.

    On PostgreSQL they run truly at once. SQLite's in-memory test database takes no concurrent
    writers, so there they run one after another from their own threads: whatever refuses the
    later ones must be the database, never memory of this process.
    """
    salida = threading.Barrier(len(funciones))
    turno = threading.Lock() if connection.vendor != "postgresql" else None
    respuestas: list[str] = []
    errores: list[BaseException] = []

    def correr(funcion: Callable[[], str]) -> None:
        try:
            salida.wait(timeout=30)
            if turno is None:
                respuestas.append(funcion())
            else:
                with turno:
                    respuestas.append(funcion())
        except BaseException as exc:  # surfaced below: a thread must not fail silently
            errores.append(exc)
        finally:
            connections.close_all()

    hilos = [threading.Thread(target=correr, args=(f,)) for f in funciones]
    for hilo in hilos:
        hilo.start()
    for hilo in hilos:
        hilo.join(timeout=120)
    assert not errores, errores
    return respuestas
