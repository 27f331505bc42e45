"""The RFC 7591 client metadata a registration may send, as the hub reads and checks it.

Ours, not the library's: django-oauth-toolkit parses registration metadata only in private helpers
of its own view (no coupling to a library's internals; docs/decisiones/oauth.md). The
hub accepts less than the library would: redirect URIs by apps.autorizacion.redirecciones (https,
loopback http, a reverse-domain private-use scheme), the authorization_code grant (with
refresh_token) and its `code` response type and nothing else, a client_name that is text. The
token_endpoint_auth_method is kept on the client, and the token endpoint accepts only that one. A
field sent as null is a field not sent (RFC 7591 section 2), a grant or response type sent twice
counts once (section 3.2.1 lets the server replace what was asked), the OpenID `application_type`
that MCP clients send (native or web) is checked and answered back, and metadata the hub does not
use (client_uri, scope...) is ignored. Every refusal carries its RFC 7591 error code and a
description for people, in Spanish, that names the RFC fields and never the model's.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from apps.autorizacion import redirecciones
from apps.autorizacion.models import Aplicacion

logger = logging.getLogger(__name__)

METODOS_AUTENTICACION = ("none", "client_secret_basic", "client_secret_post")
# RFC 7591 section 2: a client that names no method uses HTTP Basic with a secret.
METODO_POR_DEFECTO = "client_secret_basic"
# refresh_token rides along with authorization_code: it is not a flow of its own.
FLUJOS = frozenset({"authorization_code"})
ACOMPANANTES = frozenset({"refresh_token"})
# What every client gets, whatever subset it named: the metadata document offers the same.
FLUJOS_REGISTRADOS = (*sorted(FLUJOS), *sorted(ACOMPANANTES))
# RFC 7591 section 2.1: `code` is authorization_code's response type, and the only one here.
TIPOS_RESPUESTA = ("code",)
# OpenID Connect Registration section 2, sent by MCP clients since revision 2026-07-28.
TIPOS_APLICACION = ("native", "web")
# The model fields a registration fills, under the names the client sent them with.
NOMBRES_RFC = {"redirect_uris": "redirect_uris", "name": "client_name"}

DIRECCIONES_PERMITIDAS = (
    "Las direcciones de retorno deben ser https, http a 127.0.0.1, localhost o [::1], o un "
    "esquema propio con punto como com.ejemplo.app:/retorno (RFC 8252), con un nombre de host "
    "en ASCII (un dominio internacional en su forma xn--), una por elemento de la lista."
)


class MetadatosInvalidos(Exception):
    """A registration refused: its RFC 7591 error code and what the client should fix."""

    def __init__(self, descripcion: str, error: str = "invalid_client_metadata") -> None:
        super().__init__(descripcion)
        self.error = error
        self.descripcion = descripcion


@dataclass(frozen=True)
class Metadatos:
    """What the hub keeps of a client's metadata."""

    redirect_uris: tuple[str, ...]
    nombre: str
    metodo: str  # token_endpoint_auth_method
    tipo_aplicacion: str | None = None  # application_type, when the client sent one

    def campos(self) -> dict[str, str]:
        """The Aplicacion fields they fill: a client with no secret ("none") is public."""
        publico = self.metodo == "none"
        return {
            "redirect_uris": " ".join(self.redirect_uris),
            "name": self.nombre,
            "authorization_grant_type": Aplicacion.GRANT_AUTHORIZATION_CODE,
            "client_type": Aplicacion.CLIENT_PUBLIC if publico else Aplicacion.CLIENT_CONFIDENTIAL,
            "token_endpoint_auth_method": self.metodo,
        }


def leer(cuerpo: bytes) -> Metadatos:
    """The metadata in a registration's body; MetadatosInvalidos when the hub cannot accept it."""
    try:
        datos = json.loads(cuerpo)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise MetadatosInvalidos("El cuerpo debe ser JSON válido.") from None
    if not isinstance(datos, dict):
        raise MetadatosInvalidos("El cuerpo debe ser un objeto JSON con los metadatos del cliente.")
    datos = {campo: valor for campo, valor in datos.items() if valor is not None}
    uris = _redirecciones(datos.get("redirect_uris", []))
    _flujos(datos.get("grant_types", ["authorization_code"]))
    _tipos_respuesta(datos.get("response_types", list(TIPOS_RESPUESTA)))
    if not uris:
        raise MetadatosInvalidos(
            "Falta redirect_uris: el flujo authorization_code necesita al menos una dirección "
            "de retorno."
        )
    metodo = datos.get("token_endpoint_auth_method", METODO_POR_DEFECTO)
    if not isinstance(metodo, str) or metodo not in METODOS_AUTENTICACION:
        raise MetadatosInvalidos(
            "token_endpoint_auth_method no admitido. Se admiten: "
            + ", ".join(METODOS_AUTENTICACION)
            + "."
        )
    nombre = datos.get("client_name", "")
    if not isinstance(nombre, str):
        raise MetadatosInvalidos("client_name debe ser texto.")
    tipo = datos.get("application_type")
    if tipo is not None and tipo not in TIPOS_APLICACION:
        raise MetadatosInvalidos("application_type no admitido. Se admiten: native, web.")
    return Metadatos(redirect_uris=uris, nombre=nombre, metodo=metodo, tipo_aplicacion=tipo)


def _redirecciones(uris: object) -> tuple[str, ...]:
    if not isinstance(uris, list):
        raise MetadatosInvalidos("redirect_uris debe ser una lista de direcciones.")
    for uri in uris:
        # Stored space separated: a URI with whitespace inside would come back as two.
        if not isinstance(uri, str) or uri.split() != [uri] or not redirecciones.permitida(uri):
            raise MetadatosInvalidos(DIRECCIONES_PERMITIDAS, "invalid_redirect_uri")
    # Each once, in the order sent (as grant and response types): a repeat asks for nothing more.
    return tuple(dict.fromkeys(uris))


def _flujos(flujos: object) -> None:
    if not isinstance(flujos, list) or not all(isinstance(f, str) for f in flujos):
        raise MetadatosInvalidos("grant_types debe ser una lista de textos.")
    # As a set: a grant type sent twice is asked for once (every client gets FLUJOS_REGISTRADOS).
    if set(flujos) - ACOMPANANTES != FLUJOS:
        raise MetadatosInvalidos("Solo se admite el flujo authorization_code (con refresh_token).")


def _tipos_respuesta(tipos: object) -> None:
    if not isinstance(tipos, list) or not all(isinstance(t, str) for t in tipos):
        raise MetadatosInvalidos("response_types debe ser una lista de textos.")
    if not set(tipos) <= set(TIPOS_RESPUESTA):
        # "token", "id_token", hybrids like "code token", "none": flows this server has not.
        raise MetadatosInvalidos(
            "response_types no admitido: este servidor solo admite code (el flujo "
            "authorization_code)."
        )
    # RFC 7591 2.1: authorization_code, which _flujos demands, goes with code. Only what is left
    # is TIPOS_RESPUESTA itself, so every client is registered (and answered) with it.
    if "code" not in tipos:
        raise MetadatosInvalidos(
            "response_types debe incluir code: es la respuesta del flujo authorization_code "
            "(RFC 7591, sección 2.1)."
        )


def rechazo(exc: ValidationError) -> MetadatosInvalidos:
    """The model's validation error as a refusal: under the RFC names, in Spanish.

    A redirect URI the model refuses is `invalid_redirect_uri`; anything else it finds wrong is
    `invalid_client_metadata`.
    """
    # full_clean() raises errors by field; a bare error (no field) is kept apart all the same.
    errores = exc.error_dict if hasattr(exc, "error_dict") else {None: exc.error_list}
    partes = []
    for campo, lista in errores.items():
        nombre = NOMBRES_RFC.get(campo)
        if nombre is None:
            # Not a field the client sent: a name from inside the model, kept out of the answer.
            logger.warning("OAuth: registro rechazado por el modelo en %s: %s", campo, lista)
            partes.append("Los metadatos del cliente no son válidos.")
        elif campo == "redirect_uris":
            partes.append(f"{nombre}: " + " ".join(_sobre_direccion(e) for e in lista))
        else:
            partes.append(f"{nombre}: " + " ".join(ValidationError(lista).messages))
    # RFC 7591 3.2.2: whatever is wrong with a redirect URI (the hub's rule or the library's URL
    # check) is `invalid_redirect_uri`.
    codigo = "invalid_redirect_uri" if errores.get("redirect_uris") else "invalid_client_metadata"
    return MetadatosInvalidos(" ".join(dict.fromkeys(partes)), codigo)


def _sobre_direccion(error: ValidationError) -> str:
    """The hub's messages are Spanish already; the library's URI validator speaks English."""
    if error.code == "invalid_redirect_uri":
        return " ".join(error.messages)
    valor = (error.params or {}).get("value")
    return f"no es una dirección válida: {valor}." if valor else "una dirección no es válida."
