"""The authorization server's machine endpoints: RFC 8414 metadata and RFC 7591 registration,
and the library's token endpoint with its answers' headers made whole.

Revocation and authorization come from the library (apps.autorizacion.urls); these two are the
hub's because they carry its policy: the metadata names exactly what the server accepts
now (registration and metadata documents follow the administrator's switches), and registration
is counted per address, refuses redirect URIs that are neither https nor loopback http, and
answers without the RFC 7592 management fields (those endpoints are not mounted).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.views import TokenView

from apps.autorizacion import metadatos_cliente, nulos, servidor
from apps.autorizacion.models import Aplicacion
from apps.autorizacion.registro import RegistroPermitido
from apps.mcp.models import AjustesAsistente
from hub.http import limites, respuestas
from hub.http.middleware import largo_declarado

logger = logging.getLogger(__name__)

# Registrations per address and hour: an assistant registers once per installation.
REGISTROS_POR_HORA = 20
# A client's metadata is a few hundred bytes; anything near this is not a registration.
MAX_CUERPO_REGISTRO = 16 * 1024
ALCANCES = sorted(settings.OAUTH2_PROVIDER["SCOPES"])
METODOS_AUTENTICACION = settings.OAUTH2_PROVIDER["OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED"]


def _url(nombre: str) -> str:
    return settings.HUB_URL_PUBLICA + reverse(f"oauth2_provider:{nombre}")


@csrf_exempt  # served under /mcp/api/mcp too (an /api/ path): GET only, no cookie to protect
def metadatos_servidor(request: HttpRequest) -> JsonResponse:
    """RFC 8414 authorization server metadata, issuer HUB_URL_PUBLICA."""
    ajustes = AjustesAsistente.cargar()
    datos = {
        "issuer": settings.HUB_URL_PUBLICA,
        "authorization_endpoint": _url("authorize"),
        "token_endpoint": _url("token"),
        "revocation_endpoint": _url("revoke-token"),
        "response_types_supported": list(metadatos_cliente.TIPOS_RESPUESTA),
        "grant_types_supported": list(metadatos_cliente.FLUJOS_REGISTRADOS),
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": ALCANCES,
        "token_endpoint_auth_methods_supported": METODOS_AUTENTICACION,
        "revocation_endpoint_auth_methods_supported": METODOS_AUTENTICACION,
        # RFC 9207: the authorization response carries `iss`.
        "authorization_response_iss_parameter_supported": True,
    }
    if RegistroPermitido().has_permission(request):
        datos["registration_endpoint"] = _url("dcr-register")
    if ajustes.oauth_habilitado and ajustes.oauth_cimd_habilitado:
        datos["client_id_metadata_document_supported"] = True
    respuesta = JsonResponse(datos)
    respuesta["Access-Control-Allow-Origin"] = "*"
    respuesta["Cache-Control"] = "max-age=300"
    return respuesta


def _sin_cache(respuesta: HttpResponse) -> HttpResponse:
    """An answer that may carry a secret or a token: never kept by a cache (RFC 6749 5.1)."""
    respuesta["Cache-Control"] = "no-store"
    respuesta["Pragma"] = "no-cache"
    return respuesta


def _error(status: int, error: str, descripcion: str, headers: dict | None = None) -> JsonResponse:
    respuesta = JsonResponse({"error": error, "error_description": descripcion}, status=status)
    for nombre, valor in (headers or {}).items():
        respuesta[nombre] = valor
    respuesta["Cache-Control"] = "no-store"
    return respuesta


class Token(TokenView):
    """POST: the library's token endpoint, every answer JSON and never cached (RFC 6749 5.1 and
    5.2). oauthlib adds those headers only to what its grant handlers answer; an error raised
    elsewhere (RFC 8707 `invalid_target` while the tokens are saved, query parameters on the
    request) reached the client as text/html that a cache could keep. A protocol parameter sent
    twice is `invalid_request`, as at the authorization endpoint (servidor.sin_repetidos)."""

    def post(self, request, *args, **kwargs):
        doble = next((n for n in servidor.UNICOS if len(request.POST.getlist(n)) > 1), None)
        if doble is not None:
            # RFC 6749 3.2: a parameter sent twice is refused. The library would pass oauthlib
            # only the last value (oauthlib's own repeat checks never see the first).
            respuesta = HttpResponse(servidor.repetido(doble).json, status=400)
        else:
            # RFC 8707 with a trailing slash names the MCP endpoint all the same.
            request.POST = servidor.con_recursos_canonicos(request.POST)
            respuesta = super().post(request, *args, **kwargs)
        respuesta["Content-Type"] = "application/json"
        return _sin_cache(respuesta)


REGLA_REGISTRO = limites.Regla(
    grupo="oauth_registro", limite=lambda: REGISTROS_POR_HORA, ventana=3600
)


@method_decorator(csrf_exempt, name="dispatch")
class Registro(View):
    """POST: RFC 7591 dynamic client registration (the metadata read by metadatos_cliente)."""

    http_method_names = ["post", "options"]

    def post(self, request: HttpRequest) -> JsonResponse:
        try:
            # Fail closed: a registration writes a row, and a flood must not pass uncounted.
            limites.aplicar(request, [REGLA_REGISTRO], falla_cerrado=True)
        except respuestas.ErrorAPI as exc:
            return _error(exc.status, "temporarily_unavailable", exc.detalle, exc.headers)
        if not RegistroPermitido().has_permission(request):
            return _error(
                403,
                "access_denied",
                "El registro abierto de aplicaciones está cerrado: pida a un administrador que "
                "agregue la aplicación.",
            )
        largo = largo_declarado(request)
        if largo < 0:
            return _error(400, "invalid_request", "Content-Length no es válido.")
        if largo > MAX_CUERPO_REGISTRO:
            return _error(413, "invalid_client_metadata", "Los metadatos son demasiado grandes.")
        try:
            metadatos = metadatos_cliente.leer(request.body)
        except metadatos_cliente.MetadatosInvalidos as exc:
            return _error(400, exc.error, exc.descripcion)
        if nulos.con_nul(metadatos.redirect_uris):
            # No database holds NUL or a lone surrogate (the name is stored cleaned of them).
            return _error(400, "invalid_redirect_uri", metadatos_cliente.DIRECCIONES_PERMITIDAS)
        aplicacion = Aplicacion(
            user=None, registration_source=Aplicacion.Origen.DCR, **metadatos.campos()
        )
        # Read before save(): the model keeps only the secret's hash.
        confidencial = aplicacion.client_type == Aplicacion.CLIENT_CONFIDENTIAL
        secreto = aplicacion.client_secret if confidencial else None
        try:
            aplicacion.full_clean()
        except ValidationError as exc:
            rechazo = metadatos_cliente.rechazo(exc)
            return _error(400, rechazo.error, rechazo.descripcion)
        with transaction.atomic():
            aplicacion.save()
        logger.info("OAuth: cliente registrado (id %s)", aplicacion.pk)
        # It may carry client_secret (RFC 7591's examples answer it with no-store too).
        return _sin_cache(JsonResponse(self.respuesta(aplicacion, secreto, metadatos), status=201))

    @staticmethod
    def respuesta(
        aplicacion: Aplicacion, secreto: str | None, metadatos: metadatos_cliente.Metadatos
    ) -> dict:
        """RFC 7591 section 3.2.1: the client's metadata as stored, its id (and secret, once)."""
        datos = {
            "client_id": aplicacion.client_id,
            "client_id_issued_at": int(aplicacion.created.timestamp()),
            "redirect_uris": aplicacion.redirect_uris.split(),
            "grant_types": list(metadatos_cliente.FLUJOS_REGISTRADOS),
            "response_types": list(metadatos_cliente.TIPOS_RESPUESTA),
            "token_endpoint_auth_method": metadatos.metodo,
        }
        if metadatos.tipo_aplicacion is not None:
            datos["application_type"] = metadatos.tipo_aplicacion
        if aplicacion.name:
            datos["client_name"] = aplicacion.name
        if secreto:
            datos["client_secret"] = secreto
            datos["client_secret_expires_at"] = 0
        return datos
