"""The OAuth access token as a user credential of the MCP endpoint (docs/contrato.md).

An `Authorization: Bearer sgioat_...` names a person and the client they approved: it stands for
integration + person, so the organization's "personal token only" switch does not apply to it,
while its own switches (OAuth off, verified clients only, a client disabled) do, through
apps.autorizacion.accesos, which also keeps the token's identity in the shared cache (a warm
call runs no SQL). It never stands beside another credential: the token already names both.
This module builds its kind, `OAUTH`; AutorizacionConfig.ready() registers it in the assistant's
credential table (apps.mcp.credenciales.TIPOS), which does not import OAuth.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from apps.autorizacion import accesos, tokens
from apps.autorizacion import services as servicios_oauth
from apps.autorizacion.accesos import AccesoOAuth
from apps.cuentas.models import User
from apps.mcp import recurso, services
from apps.mcp.credenciales import NOMBRE_OAUTH, Papel, TipoCredencial

PREFIJO_ACCESO = tokens.PREFIJO_ACCESO
# A refresh token sent as Bearer is an OAuth token too: refused as one (TOKEN_MCP_INVALIDO, its
# prefix never makes it an access token), not taken for an API key.
PREFIJOS_BEARER = tokens.PREFIJOS

AMBIGUA = "El token OAuth ya identifica a la persona y a la aplicación: no envíe otra credencial."
INVALIDO = ("TOKEN_MCP_INVALIDO", "El token OAuth no es válido, venció o fue revocado.")
OTRO_RECURSO = "El token OAuth fue emitido para otro recurso."


def fuera_de_recurso(acceso: AccesoOAuth) -> str | None:
    """RFC 8707: why a live token may still not be used here (issued for another resource)."""
    return None if acceso.para_recurso(recurso.url_recurso()) else OTRO_RECURSO


def vigente_para(token_id: int, usuario: User | None) -> bool:
    """Whether this person's access token `token_id` still stands: not expired, and not deleted
    (a revocation or a refresh deletes it)."""
    return (
        get_access_token_model()
        .objects.filter(pk=token_id, user=usuario, expires__gt=timezone.now())
        .exists()
    )


def testigo_uso(token_id: int) -> str:
    """The key of an access token's testigo de uso (apps.mcp.services.toca_anotar)."""
    return f"mcp:uso:o{token_id}"


def testigos_uso(vista: tuple[int, ...], _ip: str) -> tuple[str, ...]:
    """The token's and its client's testigos, from (token id, user id, client id)."""
    return (testigo_uso(vista[0]), servicios_oauth.testigo_uso(vista[2]))


def anotar_uso(acceso: AccesoOAuth, _ip: str, ahora: datetime | None = None) -> None:
    """Record the token's last use (the profile's "último uso") and the client's (the admin's),
    each at most once a minute; an UPDATE sends no signal, so no cached identity changes."""
    ahora = ahora or timezone.now()
    # Last use is a convenience: with the cache down it is never a reason to write per call.
    if services.toca_anotar(testigo_uso(acceso.token_id), None, ahora, sin_cache=False):
        get_access_token_model().objects.filter(pk=acceso.token_id).update(updated=ahora)
    servicios_oauth.anotar_uso(acceso.aplicacion, ahora)


# Its row of the credential table: a person and the client they approved, so it comes alone and
# the "personal token only" switch does not apply to it; its own switches (OAuth off, verified
# clients only, a client disabled) are part of the row's `vigente()` (apps.autorizacion.accesos).
OAUTH = TipoCredencial(
    nombre=NOMBRE_OAUTH,
    papel=Papel.PERSONA,
    cabecera=None,
    prefijo=PREFIJO_ACCESO,
    bearer=PREFIJOS_BEARER,
    prever=accesos.prever,
    buscar=accesos.por_huella,
    anotar_uso=anotar_uso,
    testigos_uso=testigos_uso,
    invalida=INVALIDO,
    letra="o",
    vigente_para=vigente_para,
    reparo=fuera_de_recurso,
    sola=AMBIGUA,
)
