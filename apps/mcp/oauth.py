"""The OAuth access token as a user credential of the MCP endpoint (DESIGN 6; issue 25, item 6).

An `Authorization: Bearer sgioat_...` names a person and the client they approved: it stands for
integration + person, so the organization's "personal token only" switch does not apply to it,
while its own switches (OAuth off, verified clients only, a client disabled) do, through
apps.autorizacion.accesos, which also keeps the token's identity in the shared cache (a warm
call runs no SQL). It never stands beside another credential: the token already names both.
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from apps.autorizacion import accesos, tokens
from apps.autorizacion import services as servicios_oauth
from apps.autorizacion.accesos import ALCANCE_ESCRIBIR, AccesoOAuth
from apps.mcp import recurso, services
from hub.respuestas import ErrorAPI

__all__ = [
    "ALCANCE_ESCRIBIR",
    "PREFIJO_ACCESO",
    "AccesoOAuth",
    "anotar_uso",
    "claves",
    "secreto",
    "validar",
]

PREFIJO_ACCESO = tokens.PREFIJO_ACCESO

AMBIGUA = "El token OAuth ya identifica a la persona y a la aplicación: no envíe otra credencial."


def _invalido(detalle: str) -> ErrorAPI:
    return ErrorAPI(
        401,
        "TOKEN_MCP_INVALIDO",
        detalle,
        headers={"WWW-Authenticate": recurso.desafio(token_invalido=True)},
    )


def secreto(request: HttpRequest) -> str | None:
    """The OAuth access token sent as a bearer, or None when there is none.

    400 CREDENCIAL_AMBIGUA when anything else comes beside it: a personal token, an API key
    (in its header or as another bearer) or a second, different OAuth token.
    """
    meta = request.META
    if "HTTP_AUTHORIZATION" not in meta:
        return None
    partes = [p.strip() for p in meta["HTTP_AUTHORIZATION"].split(",") if p.strip()]
    encontrados: set[str] = set()
    otras = 0
    for parte in partes:
        esquema, _, valor = parte.partition(" ")
        valor = valor.strip()
        if esquema.lower() == "bearer" and tokens.es_de_acceso(valor):
            encontrados.add(valor)
        else:
            otras += 1
    if not encontrados:
        return None
    if (
        len(encontrados) > 1
        or otras
        or "HTTP_X_MCP_USER_TOKEN" in meta
        or "HTTP_X_MCP_API_KEY" in meta
    ):
        raise ErrorAPI(400, "CREDENCIAL_AMBIGUA", AMBIGUA)
    return next(iter(encontrados))


def claves(valor: str) -> list[str]:
    """The cache keys the lookup of this token reads (for hub.precarga); none for a malformed
    one (it is refused without a lookup)."""
    if not tokens.bien_formado(valor, tokens.PREFIJO_ACCESO):
        return []
    return accesos.claves(tokens.huella(valor))


def validar(valor: str) -> AccesoOAuth:
    """The live access token for the MCP resource, or 401 TOKEN_MCP_INVALIDO (never a fallback):
    malformed, unknown, expired, revoked, its client disabled or not allowed now, or issued for
    another resource (RFC 8707)."""
    acceso = accesos.acceso(valor)
    if acceso is None:
        raise _invalido("El token OAuth no es válido, venció o fue revocado.")
    if not acceso.para_recurso(recurso.url_recurso()):
        raise _invalido("El token OAuth fue emitido para otro recurso.")
    return acceso


def anotar_uso(acceso: AccesoOAuth, ahora: datetime | None = None) -> None:
    """Record the token's last use (the profile's "último uso") and the client's (the admin's),
    each at most once a minute; an UPDATE sends no signal, so no cached identity changes."""
    ahora = ahora or timezone.now()
    # Last use is a convenience: with the cache down it is never a reason to write per call.
    if services.toca_anotar(f"mcp:uso:o{acceso.token_id}", None, ahora, sin_cache=False):
        get_access_token_model().objects.filter(pk=acceso.token_id).update(updated=ahora)
    servicios_oauth.anotar_uso(acceso.aplicacion, ahora)
