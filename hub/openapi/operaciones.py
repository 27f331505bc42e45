"""Each v1 endpoint declared once: a documentation-only DRF view per real view, never routed.

`generador` swaps these in for the real callbacks (mostly plain Django functions, kept for speed)
when it walks the URLconf. Statuses and headers follow the views and the outer middleware:
every API path may also answer 413 (body too large), 429 (global per-IP limit) and 500.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authentication import BaseAuthentication
from rest_framework.views import APIView

from apps.notificaciones.api import EntradaContacto
from hub.openapi import componentes as c
from hub.ping import SERVICIOS

HEADER = OpenApiParameter.HEADER
PATH = OpenApiParameter.PATH
QUERY = OpenApiParameter.QUERY

ENTERO = {"type": "integer", "minimum": 0}
NO_STORE = {"type": "string", "enum": ["no-store"]}
REVALIDAR = "public, max-age=0, must-revalidate"
INMUTABLE = "public, max-age=31536000, immutable"


def enum(*valores: str) -> dict[str, Any]:
    """A string header with exactly these values."""
    return {"type": "string", "enum": list(valores)}


ETAG = {"type": "string", "pattern": r'^"[0-9a-f]{16}"$'}


def cabecera(
    nombre: str,
    descripcion: str,
    estados: list[int] | bool = True,
    *,
    tipo: Any = OpenApiTypes.STR,
    requerida: bool = False,
) -> OpenApiParameter:
    """A response header of some statuses (all of them with True)."""
    return OpenApiParameter(
        nombre,
        tipo,
        HEADER,
        required=requerida,
        description=descripcion,
        response=estados,
    )


def error(descripcion: str, *estados: int) -> OpenApiResponse:
    """An error envelope response; the description names the possible codes."""
    codigos = f" Códigos: {c.codigos(*estados)}." if estados else ""
    return OpenApiResponse(c.SobreError, description=descripcion + codigos)


# Every answer under /api/ passes the outer middleware.
CABECERAS_COMUNES = [
    cabecera(
        "X-RateLimit-Global-Limit",
        "Límite global por IP y minuto (ausente si la caché compartida no responde).",
        tipo=ENTERO,
    ),
    cabecera("X-RateLimit-Global-Remaining", "Solicitudes globales restantes.", tipo=ENTERO),
    cabecera("X-Request-ID", "Identificador de la solicitud, el mismo de los registros."),
]
RESPUESTAS_COMUNES = {
    413: error("El cuerpo supera el máximo configurado (HUB_MAX_CUERPO).", 413),
    429: error(
        "Demasiadas solicitudes (límite del endpoint o límite global por IP); espere "
        "Retry-After segundos.",
        429,
    ),
    500: error("Error interno.", 500),
}


# Every 429 (the endpoint's own or the global one) says when to retry.
REINTENTAR = cabecera(
    "Retry-After", "Segundos hasta que se libere el límite.", [429], tipo=ENTERO, requerida=True
)


def limite_endpoint(estados: list[int]) -> list[OpenApiParameter]:
    """X-RateLimit-Limit / Remaining of the endpoint's own limit (absent if the cache is down)."""
    return [
        cabecera("X-RateLimit-Limit", "Límite del endpoint por minuto.", estados, tipo=ENTERO),
        cabecera(
            "X-RateLimit-Remaining", "Solicitudes restantes en la ventana.", estados, tipo=ENTERO
        ),
    ]


def documentar(
    *,
    parametros: list[OpenApiParameter] | None = None,
    respuestas: dict[Any, Any],
    **kwargs: Any,
):
    """extend_schema with the statuses and headers every API path shares."""
    return extend_schema(
        parameters=[*(parametros or []), *CABECERAS_COMUNES, REINTENTAR],
        responses={**respuestas, **RESPUESTAS_COMUNES},
        **kwargs,
    )


class Documentacion(APIView):
    """Base of the documentation-only views: no authentication, no permission."""

    authentication_classes: list = []
    permission_classes: list = []


# --- brand ------------------------------------------------------------------------------------

SI_NO_COINCIDE = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    HEADER,
    description="ETag de una respuesta anterior: si sigue vigente, 304 sin cuerpo.",
)
ETAG_CACHE = [200, 304]
CABECERAS_MARCA = [
    cabecera(
        "ETag",
        "Huella de la marca entre comillas (igual a data.version).",
        ETAG_CACHE,
        tipo=ETAG,
        requerida=True,
    ),
    cabecera(
        "Cache-Control", "Revalidar siempre.", ETAG_CACHE, tipo=enum(REVALIDAR), requerida=True
    ),
    *limite_endpoint([200, 304, 429]),
]


class MarcaDoc(Documentacion):
    @documentar(
        operation_id="marca",
        summary="Marca vigente",
        description="Identidad visual pública de la organización. Responde 304 sin cuerpo cuando "
        "If-None-Match coincide con el ETag vigente. Límite: 600 por minuto por IP (compartido con "
        "las imágenes). Otros métodos: 405 `METODO_NO_PERMITIDO` con Allow: GET, HEAD.",
        tags=["Marca"],
        auth=[],
        parametros=[SI_NO_COINCIDE, *CABECERAS_MARCA],
        respuestas={
            200: OpenApiResponse(c.SobreMarca, description="La marca vigente."),
            304: OpenApiResponse(description="Sin cambios: el cliente ya tiene esta versión."),
        },
    )
    def get(self, request):
        """Documentation only."""


SLOT = OpenApiParameter(
    "slot", OpenApiTypes.STR, PATH, enum=["logo", "isotipo", "favicon"], description="Imagen."
)
VERSION_IMAGEN = OpenApiParameter(
    "v",
    OpenApiTypes.STR,
    QUERY,
    description="Versión de la marca (como en logo_url): con la vigente la respuesta es inmutable; "
    "con otra cualquiera, revalidable.",
)
CABECERAS_IMAGEN = [
    cabecera("ETag", "Huella de la imagen entre comillas.", ETAG_CACHE, tipo=ETAG, requerida=True),
    cabecera(
        "Cache-Control",
        "Inmutable si ?v= es la versión vigente; si no, revalidar.",
        ETAG_CACHE,
        tipo=enum(INMUTABLE, REVALIDAR),
        requerida=True,
    ),
    cabecera("X-Content-Type-Options", "nosniff", ETAG_CACHE, tipo=enum("nosniff"), requerida=True),
    cabecera(
        "Content-Security-Policy",
        "Un SVG abierto directamente no ejecuta nada.",
        ETAG_CACHE,
        requerida=True,
    ),
    cabecera("Content-Disposition", 'inline; filename="<slot>.<ext>"', [200], requerida=True),
    *limite_endpoint([200, 304, 404, 429]),
]
BINARIO = OpenApiResponse(OpenApiTypes.BINARY, description="La imagen con su Content-Type real.")


class ArchivoMarcaDoc(Documentacion):
    @documentar(
        operation_id="marca_archivo",
        summary="Imagen de la marca",
        description="El archivo de logo, isotipo o favicon. 304 cuando If-None-Match coincide. "
        "Comparte el límite de la marca. Otros métodos: 405 `METODO_NO_PERMITIDO`.",
        tags=["Marca"],
        auth=[],
        parametros=[SLOT, VERSION_IMAGEN, SI_NO_COINCIDE, *CABECERAS_IMAGEN],
        respuestas={
            (200, "image/png"): BINARIO,
            (200, "image/svg+xml"): BINARIO,
            (200, "image/x-icon"): BINARIO,
            (200, "image/webp"): BINARIO,
            304: OpenApiResponse(description="Sin cambios."),
            404: error("La imagen no está configurada o el espacio no existe.", 404),
        },
    )
    def get(self, request, slot: str):
        """Documentation only."""


# --- signature verification -------------------------------------------------------------------

TOKEN_FIRMA = OpenApiParameter(
    "token",
    {"type": "string", "format": "uuid"},
    PATH,
    description="Código impreso en el QR del documento firmado.",
)
SIN_CACHE = cabecera(
    "Cache-Control",
    "La respuesta cambia si la firma se anula.",
    [200, 404],
    tipo=NO_STORE,
    requerida=True,
)


def _verificacion(operation_id: str, resumen: str, extra: str = ""):
    return documentar(
        operation_id=operation_id,
        summary=resumen,
        description="Verificación pública de una firma por su código. message es 'Firma válida.' "
        "o 'La firma fue anulada.' (ambas 200). Límite: 60 por minuto por IP. Otros métodos: 405 "
        "`METODO_NO_PERMITIDO`." + extra,
        tags=["Firmas"],
        auth=[],
        parametros=[TOKEN_FIRMA, SIN_CACHE, *limite_endpoint([200, 404, 429])],
        respuestas={
            200: OpenApiResponse(
                c.SobreVerificacion, description="La firma existe (válida o anulada)."
            ),
            404: OpenApiResponse(
                c.SobreError,
                description="Ninguna firma tiene ese código. Código: `FIRMA_NO_ENCONTRADA`.",
            ),
        },
    )


class VerificarFirmaDoc(Documentacion):
    @_verificacion("firma_verificar", "Verificar una firma")
    def get(self, request, token: str):
        """Documentation only."""


class VerificarFirmaPaaDoc(Documentacion):
    @_verificacion(
        "firma_verificar_paa", "Verificar una firma (alias PAA)", " Alias de /firmas/verificar."
    )
    def get(self, request, token: str):
        """Documentation only."""


# --- pings ------------------------------------------------------------------------------------


def _ping(servicio: str) -> type[Documentacion]:
    if servicio == "archivos":
        cuerpo, nota = c.PingArchivos, " Compatibilidad: objeto plano sin sobre."
    elif servicio == "presupuesto":
        cuerpo, nota = c.SobrePingPresupuesto, " Compatibilidad: data.ok = true."
    else:
        cuerpo, nota = c.SobrePing, ""

    class PingDoc(Documentacion):
        @documentar(
            operation_id=f"ping_{servicio}",
            summary=f"Ping de {servicio}",
            description="Vida del servicio; no toca la base de datos. Los monitores deben mirar "
            "solo el estado HTTP 200. Otros métodos: 405 `METODO_NO_PERMITIDO`." + nota,
            tags=["Ping"],
            auth=[],
            respuestas={200: OpenApiResponse(cuerpo, description="El servicio vive.")},
        )
        def get(self, request):
            """Documentation only."""

    PingDoc.__name__ = PingDoc.__qualname__ = f"Ping{servicio.capitalize()}Doc"
    return PingDoc


# --- contact ----------------------------------------------------------------------------------

CABECERAS_CONTACTO = [
    *limite_endpoint([201, 429]),
    cabecera("X-RateLimit-Limit-Dia", "Mensajes por día.", [201, 429], tipo=ENTERO),
    cabecera("X-RateLimit-Remaining-Dia", "Mensajes restantes hoy.", [201, 429], tipo=ENTERO),
]


class ContactoDoc(Documentacion):
    @documentar(
        operation_id="contacto",
        summary="Mensaje del formulario de contacto",
        description="Recibe un mensaje del sitio web `sitio` (un sitio activo configurado). "
        "Límites por IP y sitio: 3 cada 10 minutos y 20 por día; sin caché compartida responde "
        "503 (falla cerrado). El campo trampa `sitio_web` debe ir vacío. Otros métodos: 405.",
        tags=["Contacto"],
        auth=[],
        request=EntradaContacto,
        parametros=[*CABECERAS_CONTACTO],
        respuestas={
            201: OpenApiResponse(
                c.SobreRecibo,
                description="Mensaje recibido (o descartado en silencio si trae el campo trampa).",
            ),
            400: error("El cuerpo no es JSON válido (`JSON_INVALIDO`).", 400),
            406: error("Accept no admite application/json.", 406),
            415: error("El cuerpo no es application/json.", 415),
            422: error("Datos inválidos; ver error.campos.", 422),
            503: error("No es posible contar el límite ahora (caché caída).", 503),
        },
        examples=[
            OpenApiExample(
                "mensaje",
                value={
                    "nombre": "Ana Pérez",
                    "correo": "ana@example.org",
                    "asunto": "Consulta sobre un trámite",
                    "mensaje": "Quisiera saber el estado de mi solicitud.",
                    "sitio": "portal",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request):
        """Documentation only."""


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
                "description": "La clave de API o, si empieza por sgimcp_, el token personal.",
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
        'Bearer realm="mcp" (con error="invalid_token" si la credencial no es válida).',
        [401],
        requerida=True,
    ),
]


class McpDoc(Documentacion):
    authentication_classes = [CredencialesMcp]

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


# Real callback (module.name, or the DRF view class's module.name) -> its documentation.
OPERACIONES: dict[str, tuple[type[APIView], tuple[str, ...]]] = {
    "apps.marca.api.marca": (MarcaDoc, ("GET",)),
    "apps.marca.api.archivo": (ArchivoMarcaDoc, ("GET",)),
    "apps.firmas.api.verificar": (VerificarFirmaDoc, ("GET",)),
    "apps.notificaciones.api.ContactoAPI": (ContactoDoc, ("POST",)),
    "apps.mcp.protocolo.vista_mcp": (McpDoc, ("POST", "GET")),
    **{f"hub.ping.ping_{s}": (_ping(s), ("GET",)) for s in SERVICIOS},
}
# The PAA alias shares its callback with the main route: told apart by the route's name.
POR_NOMBRE_DE_RUTA: dict[str, type[APIView]] = {"verificar_paa": VerificarFirmaPaaDoc}
