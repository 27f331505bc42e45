"""Codes already exchanged: a second use is a stolen code, and what the first gave is revoked.

OAuth 2.1 (draft-ietf-oauth-v2-1, 4.1.3) and RFC 6749 (4.1.2): an authorization code used more
than once is refused, and the tokens issued from it should be revoked. The library deletes the
grant on its exchange, so a replay is only "unknown code"; this module remembers, for a while,
which token family (django-oauth-toolkit's `token_family`: the first refresh token and every one
rotated from it) each code gave, under the code's digest in the shared cache. With the cache down
the replay is still refused; only the revocation is lost (logged).
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from oauth2_provider.models import RefreshToken

from apps.autorizacion import accesos, tokens
from apps.mcp import secretos

logger = logging.getLogger(__name__)

# Long past a code's own life (AUTHORIZATION_CODE_EXPIRE_SECONDS, 60 s): a replay after it is
# still a leak worth answering.
RECUERDO_SEGUNDOS = 3600


def _clave(codigo: str) -> str:
    return f"oauth:canje:{secretos.huella(codigo)}"


def anotar(codigo: str, acceso: str) -> None:
    """Remember the token family the exchange of `codigo` gave (its access token's)."""
    familia = (
        RefreshToken.objects.filter(access_token__token_checksum=tokens.huella(acceso))
        .values_list("token_family", flat=True)
        .first()
    )
    if familia is None:
        return
    try:
        cache.set(_clave(codigo), str(familia), RECUERDO_SEGUNDOS)
    except Exception:
        logger.warning("OAuth: caché no disponible; el canje de un código no quedó anotado")


def al_reusar(codigo: str) -> None:
    """A code that is not (or no longer) valid: if it was exchanged, revoke what it gave."""
    if not isinstance(codigo, str) or not codigo:
        return
    try:
        familia = cache.get(_clave(codigo))
    except Exception:
        logger.warning("OAuth: caché no disponible; un código reusado no revocó sus tokens")
        return
    if familia is None:
        return
    RefreshToken.revoke_family(uuid.UUID(familia))
    accesos.olvidar_seguro()
    logger.warning("OAuth: código de autorización usado dos veces; sus tokens fueron revocados")
