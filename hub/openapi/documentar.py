"""What the views' `@extend_schema` share: headers, error answers and the statuses of every path.

Every answer under /api/ passes the outer middleware, so every operation may also answer 413
(body too large), 429 (global per-IP limit) and 500, with the global limit headers.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from hub.openapi import componentes as c

HEADER = OpenApiParameter.HEADER
PATH = OpenApiParameter.PATH
QUERY = OpenApiParameter.QUERY

ENTERO = {"type": "integer", "minimum": 0}
NO_STORE = {"type": "string", "enum": ["no-store"]}
ETAG = {"type": "string", "pattern": r'^"[0-9a-f]{16}"$'}


def enum(*valores: str) -> dict[str, Any]:
    """A string header with exactly these values."""
    return {"type": "string", "enum": list(valores)}


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
