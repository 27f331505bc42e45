"""Codes already exchanged: a second use is a stolen code, and what the first gave is revoked.

OAuth 2.1 (draft-ietf-oauth-v2-1, 4.1.3) and RFC 6749 (4.1.2): an authorization code used more
than once is refused, and the tokens issued from it should be revoked. The library deletes the
grant on its exchange, so a replay is only "unknown code"; this module remembers which token
family (django-oauth-toolkit's `token_family`: the first refresh token and every one rotated from
it) each code gave, as a `CanjeCodigo` row under the code's digest, written in the transaction
that saves the tokens. A cache down, flushed or restored loses nothing: the replay is refused and
the family revoked. The rows are purged after `RECUERDO_SEGUNDOS` (apps.autorizacion.retencion).
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from oauth2_provider.models import RefreshToken

from apps.autorizacion import accesos, tokens
from apps.autorizacion.models import CanjeCodigo
from hub import secretos

logger = logging.getLogger(__name__)

# Long past a code's own life (AUTHORIZATION_CODE_EXPIRE_SECONDS, 60 s): a replay after it is
# still a leak worth answering. The purge keeps a row at least this long.
RECUERDO_SEGUNDOS = 3600


class YaCanjeado(Exception):
    """The code was exchanged already: this exchange is a replay that raced the first one."""


def anotar(codigo: str, acceso: str) -> None:
    """Record the token family the exchange of `codigo` gave (its access token's), in the
    caller's transaction; `YaCanjeado` if another exchange of the same code recorded one."""
    familia = (
        RefreshToken.objects.filter(access_token__token_checksum=tokens.huella(acceso))
        .values_list("token_family", flat=True)
        .first()
    )
    if familia is None:
        return
    try:
        with transaction.atomic():
            CanjeCodigo.objects.create(huella=secretos.huella(codigo), familia=familia)
    except IntegrityError:
        raise YaCanjeado from None


def al_reusar(codigo: str) -> None:
    """A code that is not (or no longer) valid: if it was exchanged, revoke what it gave."""
    if not isinstance(codigo, str) or not codigo:
        return
    familia = (
        CanjeCodigo.objects.filter(huella=secretos.huella(codigo))
        .values_list("familia", flat=True)
        .first()
    )
    if familia is None:
        return
    RefreshToken.revoke_family(familia)
    accesos.olvidar_seguro()
    logger.warning("OAuth: código de autorización usado dos veces; sus tokens fueron revocados")
