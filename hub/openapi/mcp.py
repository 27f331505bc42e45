"""The schema of the assistant endpoint, the one plain Django view of the interface.

`POST /mcp/api/mcp` speaks JSON-RPC 2.0 (the client's design card: a plain view over the same
models), so drf-spectacular cannot read it; this documentation-only DRF view stands in for it when
`generador` walks the URLconf. Every other v1 route is a DRF view documented where it is written.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework.authentication import BaseAuthentication
from rest_framework.views import APIView

from hub.openapi import componentes as c
from hub.openapi.documentar import HEADER, NO_STORE, cabecera, documentar, error, limite_endpoint

# --- assistant server -------------------------------------------------------------------------


class CredencialesMcp(BaseAuthentication):
    """Stands for the assistant's credentials in the schema; the real check is in apps.mcp."""


class ExtensionCredencialesMcp(OpenApiAuthenticationExtension):
    target_class = CredencialesMcp
    name = ["claveApi", "bearer", "tokenUsuario"]

    def get_security_definition(self, auto_schema):
        return [
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-MCP-Api-Key",
                "description": "Clave de API de la integración.",
            },
            {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "La clave de API; si empieza por sgimcp_, el token personal; si empieza por "
                    "sgioat_, el token de acceso OAuth (persona + aplicación conectada, sin otra "
                    "credencial al lado; se obtiene iniciando sesión en el hub, ver "
                    "/.well-known/oauth-protected-resource/mcp/api/mcp)."
                ),
            },
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-MCP-User-Token",
                "description": "Token personal (sgimcp_...): actúa con los permisos de la persona.",
            },
        ]

    def get_security_requirement(self, auto_schema):
        return [
            {"claveApi": [], "tokenUsuario": []},
            {"bearer": [], "tokenUsuario": []},
            {"claveApi": []},
            {"bearer": []},
            {"tokenUsuario": []},
        ]


VERSION_MCP = OpenApiParameter(
    "MCP-Protocol-Version",
    OpenApiTypes.STR,
    HEADER,
    enum=["2025-06-18", "2025-03-26"],
    description="Revisión del protocolo; otra responde 400 `VERSION_NO_SOPORTADA`.",
)
MENSAJE_MCP = c.PolymorphicProxySerializer(
    component_name="MensajeJsonRpc",
    serializers=[c.PeticionJsonRpc, c.LlamadaHerramienta, c.NotificacionJsonRpc],
    resource_type_field_name=None,
)
RESPUESTA_MCP = c.PolymorphicProxySerializer(
    component_name="RespuestaMcp",
    serializers=[c.RespuestaJsonRpc, c.ErrorJsonRpc],
    resource_type_field_name=None,
)
CABECERAS_MCP = [
    VERSION_MCP,
    cabecera(
        "Cache-Control",
        "Toda respuesta es personal.",
        [200, 202, 400, 401, 403, 406, 415, 429, 503],
        tipo=NO_STORE,
        requerida=True,
    ),
    *limite_endpoint([200, 202, 401, 415, 429, 503]),
    cabecera(
        "WWW-Authenticate",
        (
            'Bearer realm="mcp" (con error="invalid_token" si la credencial no es válida) y '
            'resource_metadata="<HUB_URL_PUBLICA>/.well-known/oauth-protected-resource/mcp/api/mcp"'
            " (RFC 9728: dónde descubrir el servidor de autorización OAuth)."
        ),
        [401],
        requerida=True,
    ),
]


class McpDoc(APIView):
    """Documentation only: never routed."""

    authentication_classes = [CredencialesMcp]
    permission_classes: list = []

    @documentar(
        operation_id="mcp",
        summary="Asistente (JSON-RPC 2.0, MCP 2025-06-18)",
        description="Un mensaje JSON-RPC 2.0 por petición, sin lotes ni SSE, sin estado. Tres "
        "niveles que no se mezclan: (1) rechazos HTTP con el sobre de error (origen, Accept, "
        "versión, credenciales, límite, Content-Type); (2) errores de protocolo JSON-RPC con HTTP "
        "200 (-32700, -32600, -32601, -32602); (3) errores de herramienta: resultado de "
        "tools/call con isError=true y structuredContent.codigo. Una notificación (sin id) "
        "recibe 202 sin cuerpo. Límites: 60 por minuto por persona, 120 por integración sin "
        "persona; las peticiones rechazadas por credencial cuentan por IP.",
        tags=["Asistente"],
        request=MENSAJE_MCP,
        parametros=[*CABECERAS_MCP],
        respuestas={
            200: OpenApiResponse(
                RESPUESTA_MCP,
                description="Resultado del método, error JSON-RPC, o resultado de herramienta "
                "(isError=true en fallos de la herramienta).",
            ),
            202: OpenApiResponse(description="Notificación aceptada, sin cuerpo."),
            400: error(
                "Credenciales contradictorias (`CREDENCIAL_AMBIGUA`), MCP-Protocol-Version no "
                "soportada (`VERSION_NO_SOPORTADA`) o Content-Length inválido.",
                400,
            ),
            401: error(
                "Credencial ausente o sin esquema Bearer (`NO_AUTENTICADO`), clave inválida "
                "(`API_KEY_INVALIDA`) o token inválido, vencido o revocado "
                "(`TOKEN_MCP_INVALIDO`).",
            ),
            403: error("Origen no permitido, o persona sin acceso al asistente.", 403),
            406: error("Accept no admite application/json.", 406),
            415: error("Content-Type no es application/json.", 415),
            503: error("No fue posible registrar la auditoría: la operación no se hizo.", 503),
        },
        examples=[
            OpenApiExample(
                "initialize",
                value={
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "cliente", "version": "1.0"},
                    },
                },
                request_only=True,
            ),
            OpenApiExample(
                "notifications/initialized",
                value={"jsonrpc": "2.0", "method": "notifications/initialized"},
                request_only=True,
            ),
            OpenApiExample(
                "tools/list",
                value={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                request_only=True,
            ),
            OpenApiExample(
                "tools/call",
                value={
                    "jsonrpc": "2.0",
                    "id": 3,
                    "method": "tools/call",
                    "params": {"name": "buscar_documento", "arguments": {"texto": "manual"}},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        """Documentation only."""

    @documentar(
        operation_id="mcp_get",
        summary="GET no se admite",
        description="El asistente no ofrece flujo SSE: GET responde 405 con Allow: POST.",
        tags=["Asistente"],
        auth=[],
        parametros=[cabecera("Allow", "POST", [405], requerida=True)],
        respuestas={405: error("Use POST.", 405)},
    )
    def get(self, request):
        """Documentation only."""
