"""Schema components: the envelope, fields no DRF field describes, and the JSON-RPC messages.

Each resource's serializer lives with its view (apps/*/api.py, hub/observabilidad/ping.py).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from hub.http.respuestas import CODIGOS

# --- fields whose JSON Schema no DRF field produces -------------------------------------------


@extend_schema_field({"type": "boolean", "enum": [True]})
class Verdadero(serializers.BooleanField):
    """Always true (the envelope's `success` on success)."""


@extend_schema_field({"type": "boolean", "enum": [False]})
class Falso(serializers.BooleanField):
    """Always false (the envelope's `success` on failure)."""


@extend_schema_field({"type": "string", "enum": ["2.0"]})
class VersionJsonRpc(serializers.CharField):
    """The JSON-RPC version, always "2.0"."""


@extend_schema_field(
    {
        "oneOf": [{"type": "string"}, {"type": "integer"}],
        "description": "Texto o entero elegido por el cliente; la respuesta lo repite.",
    }
)
class IdJsonRpc(serializers.Field):
    """A JSON-RPC request id: a string or an integer."""


@extend_schema_field(
    {
        "oneOf": [{"type": "string"}, {"type": "integer"}],
        "nullable": True,
        "description": "El id de la petición; null cuando no pudo leerse.",
    }
)
class IdRespuestaJsonRpc(serializers.Field):
    """The id echoed in a response: null when the request's id could not be read."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class Objeto(serializers.DictField):
    """Any JSON object."""


@extend_schema_field({})
class CualquierValor(serializers.Field):
    """Any JSON value (the server does not read it)."""


# --- envelope ---------------------------------------------------------------------------------


class DetalleError(serializers.Serializer):
    code = serializers.CharField(help_text="Código estable en mayúsculas, p. ej. RATE_LIMIT.")
    detalle = serializers.CharField(help_text="Texto para personas; puede cambiar.")
    campos = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Solo en 422 DATOS_INVALIDOS: campo -> lista de problemas.",
    )


class SobreError(serializers.Serializer):
    """`{success: false, error: {code, detalle, campos?}, message}`."""

    success = Falso()
    error = DetalleError()
    message = serializers.CharField(
        help_text="Texto para personas (igual a detalle si no hay otro)."
    )


_SOBRES: dict[str, type[serializers.Serializer]] = {}


def sobre(nombre: str, datos: serializers.Field, descripcion: str) -> type[serializers.Serializer]:
    """A success envelope `{success: true, data, message}` whose `data` is `datos`.

    Made once per name: two routes documented alike (the PAA alias) share one component.
    """
    if nombre not in _SOBRES:
        campos: dict[str, Any] = {
            "success": Verdadero(),
            "data": datos,
            "message": serializers.CharField(
                allow_null=True, help_text="Texto corto; puede cambiar."
            ),
            "__doc__": descripcion,
            "__module__": __name__,
        }
        _SOBRES[nombre] = type(nombre, (serializers.Serializer,), campos)
    return _SOBRES[nombre]


def codigos(*estados: int) -> str:
    """The interface's error codes of some statuses, for descriptions."""
    return ", ".join(f"`{CODIGOS[e][0]}`" for e in estados)


# --- contact ----------------------------------------------------------------------------------


class ExtensionTrampa(OpenApiSerializerFieldExtension):
    """The honeypot takes any JSON value: its validation must not tell bots apart."""

    target_class = "apps.notificaciones.api.Trampa"

    def map_serializer_field(self, auto_schema, direction):
        return {
            "nullable": True,
            "description": "Campo trampa: oculto en el formulario, las personas lo dejan vacío. "
            "Si trae algo, la respuesta es la misma pero el mensaje se descarta.",
        }


# --- JSON-RPC (assistant server) --------------------------------------------------------------


class PeticionJsonRpc(serializers.Serializer):
    """A request without tool call: initialize, ping or tools/list (answered with HTTP 200)."""

    jsonrpc = VersionJsonRpc()
    id = IdJsonRpc()
    method = serializers.ChoiceField(choices=["initialize", "ping", "tools/list"])
    params = Objeto(
        required=False,
        help_text="initialize: protocolVersion, capabilities, clientInfo {name, version}. "
        "ping y tools/list: ninguno.",
    )


class ParametrosLlamada(serializers.Serializer):
    name = serializers.CharField(min_length=1, help_text="Nombre de la herramienta.")
    arguments = Objeto(required=False, help_text="Argumentos según el inputSchema de tools/list.")


class LlamadaHerramienta(serializers.Serializer):
    """A tools/call request."""

    jsonrpc = VersionJsonRpc()
    id = IdJsonRpc()
    method = serializers.ChoiceField(choices=["tools/call"])
    params = ParametrosLlamada()


class NotificacionJsonRpc(serializers.Serializer):
    """A message without `id` (e.g. notifications/initialized): HTTP 202 without body."""

    jsonrpc = VersionJsonRpc()
    method = serializers.CharField()
    params = CualquierValor(required=False, help_text="No se lee.")


def notificacion_sin_id(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Postprocessing hook: what makes a message a notification is the absence of `id`."""
    result["components"]["schemas"][NotificacionJsonRpc.__name__]["not"] = {"required": ["id"]}
    return result


class ErrorJsonRpcDetalle(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=[-32700, -32600, -32601, -32602],
        help_text="-32700 JSON inválido o vacío; -32600 mensaje JSON-RPC inválido; "
        "-32601 método no soportado; -32602 parámetros inválidos.",
    )
    message = serializers.CharField()


class ErrorJsonRpc(serializers.Serializer):
    """A protocol error (HTTP 200)."""

    jsonrpc = VersionJsonRpc()
    id = IdRespuestaJsonRpc()
    error = ErrorJsonRpcDetalle()


class Contenido(serializers.Serializer):
    type = serializers.ChoiceField(choices=["text"])
    text = serializers.CharField()


# camelCase field names below are the protocol's own.
class ResultadoHerramienta(serializers.Serializer):
    """The result of tools/call; isError true for a tool failure (code in structuredContent)."""

    content = serializers.ListField(child=Contenido(), min_length=2, max_length=2)
    isError = serializers.BooleanField()
    structuredContent = Objeto()


class InfoServidor(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    version = serializers.CharField()


class ResultadoInitialize(serializers.Serializer):
    protocolVersion = serializers.ChoiceField(choices=["2025-06-18", "2025-03-26"])
    capabilities = Objeto()
    serverInfo = InfoServidor()
    instructions = serializers.CharField()


class Herramienta(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    inputSchema = Objeto()
    annotations = Objeto(required=False)


class ResultadoToolsList(serializers.Serializer):
    tools = Herramienta(many=True)


class ResultadoVacio(serializers.Serializer):
    """The result of ping: an empty object."""


class ExtensionResultadoVacio(OpenApiSerializerExtension):
    target_class = ResultadoVacio

    def map_serializer(self, auto_schema, direction):
        return {
            "type": "object",
            "description": "ping: un objeto vacío.",
            "additionalProperties": False,
            "maxProperties": 0,
        }


class RespuestaJsonRpc(serializers.Serializer):
    """A successful answer: initialize, ping, tools/list or tools/call (tool errors included)."""

    jsonrpc = VersionJsonRpc()
    id = IdJsonRpc()
    result = PolymorphicProxySerializer(
        component_name="ResultadoMetodo",
        serializers=[ResultadoInitialize, ResultadoToolsList, ResultadoHerramienta, ResultadoVacio],
        resource_type_field_name=None,
    )
