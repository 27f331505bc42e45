"""Schema components: the envelope, the interface's resources and the JSON-RPC messages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from hub.respuestas import CODIGOS

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


def sobre(nombre: str, datos: serializers.Field, descripcion: str) -> type[serializers.Serializer]:
    """A success envelope `{success: true, data, message}` whose `data` is `datos`."""
    campos: dict[str, Any] = {
        "success": Verdadero(),
        "data": datos,
        "message": serializers.CharField(allow_null=True, help_text="Texto corto; puede cambiar."),
        "__doc__": descripcion,
        "__module__": __name__,
    }
    return type(nombre, (serializers.Serializer,), campos)


def codigos(*estados: int) -> str:
    """The interface's error codes of some statuses, for descriptions."""
    return ", ".join(f"`{CODIGOS[e][0]}`" for e in estados)


# --- brand ------------------------------------------------------------------------------------

COLOR = r"^#[0-9A-Fa-f]{6}$"


class Marca(serializers.Serializer):
    """Brand identity: `data` of GET /auth/api/v1/auth/marca."""

    modo = serializers.ChoiceField(choices=["hub", "comarca", "marca_blanca"])
    nombre = serializers.CharField()
    tagline = serializers.CharField(allow_null=True)
    nombre_entidad = serializers.CharField(allow_null=True)
    color_primario = serializers.RegexField(COLOR, help_text="#RRGGBB")
    color_acento = serializers.RegexField(COLOR, help_text="#RRGGBB")
    logo_url = serializers.URLField(
        allow_null=True, help_text="Dirección del archivo (endpoint de imagen, con ?v=version)."
    )
    isotipo_url = serializers.URLField(allow_null=True)
    favicon_url = serializers.URLField(allow_null=True)
    logo_tipo = serializers.CharField(allow_null=True, help_text="svg, png, ico o webp.")
    isotipo_tipo = serializers.CharField(allow_null=True)
    favicon_tipo = serializers.CharField(allow_null=True)
    login_titulo = serializers.CharField()
    login_bullets = serializers.ListField(child=serializers.CharField())
    contacto_correo = serializers.CharField(allow_null=True)
    contacto_sitio = serializers.CharField(allow_null=True)
    con_tecnologia_hub = serializers.BooleanField()
    es_default = serializers.BooleanField()
    version = serializers.RegexField(
        r"^[0-9a-f]{16}$", help_text="Huella de la marca; cambia con cada cambio; igual al ETag."
    )


SobreMarca = sobre("SobreMarca", Marca(), "The brand in the envelope.")


# --- signature verification -------------------------------------------------------------------


class DocumentoFirmado(serializers.Serializer):
    """Summary of the signed document; fields other than `tipo` vary with the type."""

    tipo = serializers.CharField(help_text="paa, cdp, rp, o un movimiento cdp_<tipo> / rp_<tipo>.")

    class Meta:
        ref_name = None


class ExtensionTrampa(OpenApiSerializerFieldExtension):
    """The honeypot takes any JSON value: its validation must not tell bots apart."""

    target_class = "apps.notificaciones.api.Trampa"

    def map_serializer_field(self, auto_schema, direction):
        return {
            "nullable": True,
            "description": "Campo trampa: oculto en el formulario, las personas lo dejan vacío. "
            "Si trae algo, la respuesta es la misma pero el mensaje se descarta.",
        }


class ExtensionDocumentoFirmado(OpenApiSerializerExtension):
    """The document summary admits the fields of each type (linea, radicado, numero_cdp, ...)."""

    target_class = DocumentoFirmado

    def map_serializer(self, auto_schema, direction):
        esquema = auto_schema._map_basic_serializer(self.target, direction)
        esquema["additionalProperties"] = True
        return esquema


class Verificacion(serializers.Serializer):
    """Signature verification: `data` of GET .../firmas/verificar/{token}."""

    valido = serializers.BooleanField(help_text="false cuando la firma fue anulada.")
    anulada = serializers.BooleanField()
    firmante = serializers.CharField()
    rol = serializers.CharField()
    firmado_en = serializers.RegexField(
        r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$",
        help_text="YYYY-MM-DD HH:MM:SS, hora local del servidor.",
    )
    documento = DocumentoFirmado()
    total_firmas = serializers.IntegerField(min_value=0)


SobreVerificacion = sobre(
    "SobreVerificacion",
    Verificacion(),
    "The verification in the envelope; message 'Firma válida.' or 'La firma fue anulada.'.",
)


# --- ping -------------------------------------------------------------------------------------


class Ping(serializers.Serializer):
    """`data` of a service's ping."""

    servicio = serializers.CharField()
    ts = serializers.DateTimeField(help_text="Hora del servidor, ISO 8601 con desfase.")


class PingPresupuesto(Ping):
    """The budget service's ping adds `ok`."""

    ok = Verdadero()


class PingArchivos(serializers.Serializer):
    """The files service's ping: a flat object, without envelope (compatibility)."""

    ok = Verdadero()
    servicio = serializers.CharField()
    ts = serializers.DateTimeField()


SobrePing = sobre("SobrePing", Ping(), "A ping in the envelope (message 'pong').")
SobrePingPresupuesto = sobre(
    "SobrePingPresupuesto", PingPresupuesto(), "The budget ping in the envelope."
)


# --- contact ----------------------------------------------------------------------------------


class Recibo(serializers.Serializer):
    """`data` of an accepted contact message: a reference to quote and the time of receipt."""

    referencia = serializers.RegexField(r"^CT-[0-9A-HJKMNP-TV-Z]{10}$")
    recibido_en = serializers.DateTimeField()


SobreRecibo = sobre("SobreRecibo", Recibo(), "The receipt in the envelope.")


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


class ExtensionNotificacion(OpenApiSerializerExtension):
    """What makes a message a notification is the absence of `id`."""

    target_class = NotificacionJsonRpc

    def map_serializer(self, auto_schema, direction):
        esquema = auto_schema._map_basic_serializer(self.target, direction)
        esquema["not"] = {"required": ["id"]}
        return esquema


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
