"""The one place that builds envelopes and maps every failure to the interface's codes."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

import simplejson
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.renderers import BaseRenderer

logger = logging.getLogger(__name__)

# HTTP status -> (stable code, default Spanish text).
CODIGOS: dict[int, tuple[str, str]] = {
    400: ("SOLICITUD_INVALIDA", "La solicitud está mal formada."),
    401: ("NO_AUTENTICADO", "Se requiere una credencial válida."),
    403: ("SIN_PERMISO", "No tiene permiso para esta operación."),
    404: ("NO_ENCONTRADO", "El recurso no existe o no está disponible."),
    405: ("METODO_NO_PERMITIDO", "Método no permitido en esta ruta."),
    406: ("NO_ACEPTABLE", "El servicio solo responde application/json."),
    413: ("PAYLOAD_DEMASIADO_GRANDE", "El cuerpo de la solicitud es demasiado grande."),
    415: ("TIPO_NO_SOPORTADO", "El cuerpo debe enviarse como application/json."),
    422: ("DATOS_INVALIDOS", "Los datos enviados no son válidos."),
    429: ("RATE_LIMIT", "Demasiadas solicitudes. Intente de nuevo más tarde."),
    500: ("ERROR_INTERNO", "Ocurrió un error interno. Intente de nuevo más tarde."),
    503: ("SERVICIO_NO_DISPONIBLE", "El servicio no está disponible en este momento."),
}


def a_json(valor: Any) -> bytes:
    """JSON bytes; Decimal amounts become numbers carrying exactly their stored digits."""
    return simplejson.dumps(
        valor, use_decimal=True, ensure_ascii=False, separators=(",", ":"), default=str
    ).encode("utf-8")


class RespuestaJSON(HttpResponse):
    """An HttpResponse holding JSON encoded by `a_json`."""

    def __init__(self, cuerpo: Any, *, status: int = 200, headers: Mapping[str, str] | None = None):
        super().__init__(
            a_json(cuerpo),
            status=status,
            content_type="application/json",
            headers=dict(headers or {}),
        )


class ErrorAPI(Exception):
    """Raised anywhere under an API view; becomes an error envelope."""

    def __init__(
        self,
        status: int,
        code: str | None = None,
        detalle: str | None = None,
        *,
        campos: Mapping[str, list[str]] | None = None,
        headers: Mapping[str, str] | None = None,
        message: str | None = None,
    ):
        default_code, default_text = CODIGOS.get(status, CODIGOS[500])
        self.status = status
        self.code = code or default_code
        self.detalle = detalle or default_text
        self.campos = dict(campos) if campos is not None else None
        self.headers = dict(headers or {})
        self.message = message
        super().__init__(self.detalle)


def ok(
    data: Any,
    message: str | None = None,
    *,
    status: int = 200,
    meta: Mapping[str, int] | None = None,
    headers: Mapping[str, str] | None = None,
) -> RespuestaJSON:
    """A success envelope, encoded as every answer is (`a_json`: exact decimals).

    An HttpResponse, not DRF's Response: a DRF view may return one, and the envelope is already
    the final shape, so DRF's rendering pass (a fifth of a brand answer) would add nothing.
    """
    cuerpo: dict[str, Any] = {"success": True, "data": data, "message": message}
    if meta is not None:
        cuerpo["meta"] = dict(meta)
    return RespuestaJSON(cuerpo, status=status, headers=headers)


def error(
    status: int,
    code: str | None = None,
    detalle: str | None = None,
    *,
    campos: Mapping[str, list[str]] | None = None,
    headers: Mapping[str, str] | None = None,
    message: str | None = None,
) -> RespuestaJSON:
    """An error envelope: {success: false, error: {code, detalle, campos?}, message}."""
    return respuesta_de_error(
        ErrorAPI(status, code, detalle, campos=campos, headers=headers, message=message)
    )


def respuesta_de_error(exc: ErrorAPI) -> RespuestaJSON:
    """The envelope for an ErrorAPI."""
    cuerpo_error: dict[str, Any] = {"code": exc.code, "detalle": exc.detalle}
    if exc.campos is not None:
        cuerpo_error["campos"] = exc.campos
    cuerpo = {"success": False, "error": cuerpo_error, "message": exc.message or exc.detalle}
    return RespuestaJSON(cuerpo, status=exc.status, headers=exc.headers)


def campos_de(detalle: Any, prefijo: str = "") -> dict[str, list[str]]:
    """DRF validation detail as {field: [problems]}; nested fields as a.b, list items as a.0."""
    campos: dict[str, list[str]] = {}
    if isinstance(detalle, Mapping):
        for nombre, valor in detalle.items():
            clave = f"{prefijo}.{nombre}" if prefijo else str(nombre)
            if nombre == "non_field_errors" and not prefijo:
                clave = "__all__"
            for k, v in campos_de(valor, clave).items():
                campos.setdefault(k, []).extend(v)
    elif isinstance(detalle, list) and detalle and not all(isinstance(d, str) for d in detalle):
        for i, valor in enumerate(detalle):
            if valor:
                for k, v in campos_de(valor, f"{prefijo}.{i}" if prefijo else str(i)).items():
                    campos.setdefault(k, []).extend(v)
    elif isinstance(detalle, list):
        campos[prefijo or "__all__"] = [str(d) for d in detalle]
    else:
        campos[prefijo or "__all__"] = [str(detalle)]
    return campos


def error_de_validacion(detalle: Any) -> ErrorAPI:
    """422 DATOS_INVALIDOS with campos, from DRF-style validation detail."""
    return ErrorAPI(422, campos=campos_de(detalle))


def manejar_excepcion_drf(exc: Exception, context: Mapping[str, Any]) -> HttpResponse | None:
    """DRF EXCEPTION_HANDLER: every DRF failure becomes an envelope with the interface's code."""
    if isinstance(exc, ErrorAPI):
        return respuesta_de_error(exc)
    if isinstance(exc, Http404):
        return error(404)
    if isinstance(exc, PermissionDenied):
        return error(403)
    if isinstance(exc, drf_exceptions.ValidationError):
        return respuesta_de_error(error_de_validacion(exc.detail))
    if isinstance(exc, drf_exceptions.ParseError):
        return error(400, "JSON_INVALIDO", "El cuerpo no es JSON válido.")
    if isinstance(exc, drf_exceptions.Throttled):
        espera = max(1, int(exc.wait or 1))
        return error(429, headers={"Retry-After": str(espera)})
    if isinstance(exc, drf_exceptions.MethodNotAllowed):
        vista = context.get("view")
        permitidos = ", ".join(getattr(vista, "allowed_methods", []) or [])
        return error(405, headers={"Allow": permitidos} if permitidos else None)
    if isinstance(exc, drf_exceptions.APIException):
        status = exc.status_code if exc.status_code in CODIGOS else 400
        return error(status)
    return None  # Anything else reaches the middleware, which answers 500 ERROR_INTERNO.


class RenderizadorJSON(BaseRenderer):
    """DRF renderer with the same exact-decimal JSON as every other answer."""

    media_type = "application/json"
    format = "json"
    charset = None

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None):
        if data is None:
            return b""
        return a_json(data)


def es_ruta_api(path: str) -> bool:
    """True for paths whose failures must answer the envelope instead of an HTML page."""
    return "/api/" in path or path.startswith("/api")


def metodos(*permitidos: str) -> Callable:
    """Restrict a plain view to some methods; others get 405 METODO_NO_PERMITIDO with Allow."""
    conjunto = set(permitidos)
    if "GET" in conjunto:
        conjunto.add("HEAD")
    allow = ", ".join(sorted(conjunto))

    def decorador(vista: Callable) -> Callable:
        @functools.wraps(vista)
        def envuelta(request: HttpRequest, *args, **kwargs):
            if request.method not in conjunto:
                return error(405, headers={"Allow": allow})
            return vista(request, *args, **kwargs)

        return envuelta

    return decorador


def handler_api(status: int, html_handler: Callable) -> Callable:
    """A Django handlerNNN answering the envelope under /api/ and the usual page elsewhere."""

    def handler(request: HttpRequest, exception: Exception | None = None, **kwargs):
        if es_ruta_api(request.path):
            return error(status)
        if exception is None:
            return html_handler(request, **kwargs)
        return html_handler(request, exception, **kwargs)

    return handler
