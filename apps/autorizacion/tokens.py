"""Format of the OAuth secrets the hub issues: their own prefixes, never another credential's.

An access token is `sgioat_` and a refresh token `sgiort_`, each followed by 32 random base62
characters and a 6-character checksum, exactly like a personal token (`sgimcp_`) or an API key
(`sgiapi_`): a leaked one is recognized offline, and a typo is refused without the database.
Only their SHA-256 digest is stored (COMPLIANT_BCP_RFC9700_TOKEN_STORAGE): the library's
`token_checksum` column is that digest.
"""

from __future__ import annotations

from hub import secretos

PREFIJO_ACCESO = "sgioat_"
PREFIJO_REFRESCO = "sgiort_"
PREFIJOS = (PREFIJO_ACCESO, PREFIJO_REFRESCO)


def generar_acceso(request=None) -> str:
    """A new access token (oauthlib's `token_generator(request)`)."""
    return secretos.generar(PREFIJO_ACCESO)


def generar_refresco(request=None) -> str:
    """A new refresh token (oauthlib's `refresh_token_generator(request)`)."""
    return secretos.generar(PREFIJO_REFRESCO)


def bien_formado(valor: str, prefijo: str = PREFIJO_ACCESO) -> bool:
    """True when the token has this prefix, the right length, alphabet and checksum."""
    return secretos.bien_formado(valor, prefijo)


def huella(valor: str) -> str:
    """The digest the library stores (`token_checksum`): SHA-256 hex."""
    return secretos.huella(valor)
