"""Fixtures of the assistant tests: credentials, people, a JSON-RPC caller, test-only tools."""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import Group
from rest_framework import serializers

from apps.mcp.models import AjustesAsistente
from apps.mcp.registro import (
    Acceso,
    ErrorHerramienta,
    Herramienta,
    Llamada,
    Resultado,
    registro,
)
from hub.serializadores import Estricto
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token

URL = "/mcp/api/mcp"
_ids = itertools.count(1)


@dataclass
class Respuesta:
    """An HTTP answer of the endpoint with its JSON body (if any)."""

    http: Any
    cuerpo: Any = field(default=None)

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


def resultado_valido(r: Respuesta, nombre: str, *, decimales: bool = False) -> dict:
    """A successful tool result: its structuredContent satisfies the tool's own outputSchema
    (formats checked) and content[1] carries the same data as JSON text. Returns the
    structuredContent; with `decimales`, read from the body with every number an exact Decimal."""
    import jsonschema

    from apps.mcp.registro import registro as registro_herramientas

    resultado = r.resultado
    assert resultado["isError"] is False, resultado
    datos = resultado["structuredContent"]
    jsonschema.validate(
        datos,
        registro_herramientas.obtener(nombre).esquema_salida,
        format_checker=jsonschema.FormatChecker(),
    )
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
    return datos


def llamar(client, nombre: str, argumentos: Any = None, **cabeceras: str) -> Respuesta:
    params: dict[str, Any] = {"name": nombre}
    if argumentos is not None:
        params["arguments"] = argumentos
    return rpc(client, "tools/call", params, **cabeceras)


@pytest.fixture(autouse=True)
def _ajustes_frescos():
    AjustesAsistente.olvidar()
    yield
    AjustesAsistente.olvidar()


def ajustar(**valores) -> AjustesAsistente:
    """Change the assistant settings as an administrator would."""
    ajustes = AjustesAsistente.cargar()
    for nombre, valor in valores.items():
        setattr(ajustes, nombre, valor)
    ajustes.save()
    return AjustesAsistente.cargar()


@pytest.fixture
def clave():
    """Headers of a valid integration API key."""
    _, secreto = nueva_clave()
    return {"X-MCP-Api-Key": secreto}


@pytest.fixture
def completo():
    """A person with assistant access and every test permission."""
    return UserFactory(
        username="completo_t",
        permisos=["mcp.asistente.usar", "cuentas.view_area", "auth.add_group"],
    )


@pytest.fixture
def limitado():
    """A person with assistant access only."""
    return UserFactory(username="limitado_t", permisos=["mcp.asistente.usar"])


@pytest.fixture
def token_completo(completo):
    return nuevo_token(completo)[1]


@pytest.fixture
def token_limitado(limitado):
    return nuevo_token(limitado)[1]


@pytest.fixture
def como(clave):
    """The headers of the integration key acting for a person: `como(usuario)`."""

    def _como(usuario) -> dict[str, str]:
        return {**clave, "X-MCP-User-Token": nuevo_token(usuario)[1]}

    return _como


@pytest.fixture
def como_completo(clave, token_completo):
    return {**clave, "X-MCP-User-Token": token_completo}


@pytest.fixture
def como_limitado(clave, token_limitado):
    return {**clave, "X-MCP-User-Token": token_limitado}


# --- tools that exist only in the tests --------------------------------------------------------


class ArgsEco(Estricto):
    texto = serializers.CharField(min_length=2, max_length=50, help_text="Lo que se repite.")
    veces = serializers.IntegerField(min_value=1, max_value=5, default=1)
    modo = serializers.ChoiceField(choices=["corto", "largo"], required=False)
    dia = serializers.DateField(required=False)
    activo = serializers.BooleanField(default=False)
    etiquetas = serializers.ListField(
        child=serializers.ChoiceField(choices=["a", "b"]), required=False, max_length=2
    )


SALIDA_ECO = {
    "type": "object",
    "properties": {"texto": {"type": "string"}, "veces": {"type": "integer"}},
    "required": ["texto", "veces"],
    "additionalProperties": False,
}


def _eco(llamada: Llamada, datos: dict) -> Resultado:
    return Resultado(f"Eco: {datos['texto']}", {"texto": datos["texto"], "veces": datos["veces"]})


class ArgsNada(Estricto):
    pass


def _falla(llamada: Llamada, datos: dict) -> Resultado:
    raise RuntimeError("detalle-interno-que-no-debe-salir")


def _publica(llamada: Llamada, datos: dict) -> Resultado:
    quien = llamada.usuario.username if llamada.usuario else None
    return Resultado("Pública.", {"usuario": quien})


class ArgsGrupo(Estricto):
    nombre = serializers.CharField(min_length=3, max_length=60)
    fallar = serializers.BooleanField(default=False)


SALIDA_GRUPO = {
    "type": "object",
    "properties": {"grupo_id": {"type": "integer"}, "nombre": {"type": "string"}},
    "required": ["grupo_id", "nombre"],
}
PREVIA_GRUPO = {
    "type": "object",
    "properties": {"nombre": {"type": "string"}},
    "required": ["nombre"],
}


def _previa_grupo(llamada: Llamada, datos: dict) -> Resultado:
    if datos["nombre"].startswith("prohibido"):
        raise ErrorHerramienta("NO_ENCONTRADO", "No existe.")
    return Resultado(f"Se creará el grupo {datos['nombre']}.", {"nombre": datos["nombre"]})


def _crear_grupo(llamada: Llamada, datos: dict, previa: Resultado) -> Resultado:
    grupo = Group.objects.create(name=datos["nombre"])
    if datos["fallar"]:
        raise ErrorHerramienta("NO_ENCONTRADO", "Falló después de escribir.")
    return Resultado("Grupo creado.", {"grupo_id": grupo.pk, "nombre": grupo.name})


class ArgsVerificada(Estricto):
    clave = serializers.CharField(max_length=20)


def _verificada(llamada: Llamada, datos: dict) -> Resultado:
    from apps.mcp import limites

    if llamada.usuario is None:
        limites.verificacion_bloqueada(llamada)
        if datos["clave"] != "buena":
            limites.anotar_verificacion_fallida(llamada)
            raise ErrorHerramienta("NO_ENCONTRADO", "No encontrado.", encontrado=False)
    return Resultado("Verificado.", {"encontrado": True})


HERRAMIENTAS_PRUEBA = [
    Herramienta(
        nombre="prueba_verificada",
        titulo="Verificada de prueba",
        descripcion="Cuenta verificaciones fallidas.",
        acceso=Acceso.VERIFICADA,
        argumentos=ArgsVerificada,
        salida={"type": "object", "properties": {"encontrado": {"type": "boolean"}}},
        funcion=_verificada,
    ),
    Herramienta(
        nombre="prueba_eco",
        titulo="Eco de prueba",
        descripcion="Repite un texto.",
        acceso=Acceso.USUARIO,
        permisos=("cuentas.view_area",),
        argumentos=ArgsEco,
        salida=SALIDA_ECO,
        funcion=_eco,
    ),
    Herramienta(
        nombre="prueba_falla",
        titulo="Falla de prueba",
        descripcion="Siempre falla.",
        acceso=Acceso.USUARIO,
        argumentos=ArgsNada,
        salida={"type": "object"},
        funcion=_falla,
    ),
    Herramienta(
        nombre="prueba_publica",
        titulo="Pública de prueba",
        descripcion="Sin usuario.",
        acceso=Acceso.PUBLICA,
        argumentos=ArgsNada,
        salida={"type": "object", "properties": {"usuario": {"type": ["string", "null"]}}},
        funcion=_publica,
    ),
    Herramienta(
        nombre="prueba_grupo",
        titulo="Crear grupo (prueba)",
        descripcion="Escribe un grupo en dos pasos.",
        acceso=Acceso.USUARIO,
        permisos=("auth.add_group",),
        escritura=True,
        argumentos=ArgsGrupo,
        salida=SALIDA_GRUPO,
        salida_vista_previa=PREVIA_GRUPO,
        funcion=_previa_grupo,
        ejecutar=_crear_grupo,
    ),
]


@pytest.fixture
def herramientas_prueba():
    """Register the test-only tools (prueba_publica made public) and remove them afterwards."""
    for h in HERRAMIENTAS_PRUEBA:
        registro.registrar(h)
    ajustar(
        herramientas_publicas=[
            "estado_solicitud",
            "buscar_documento",
            "prueba_publica",
            "prueba_verificada",
        ]
    )
    yield {h.nombre: h for h in HERRAMIENTAS_PRUEBA}
    for h in HERRAMIENTAS_PRUEBA:
        registro.quitar(h.nombre)
