"""The assistant's secrets: the prefixes of personal tokens and API keys, and the short prefix
lists show. Their format, checksum and digest are the hub's (hub.secretos)."""

from __future__ import annotations

from hub.secretos import LARGO_VISIBLE

PREFIJO_TOKEN = "sgimcp_"
PREFIJO_CLAVE = "sgiapi_"


def visible(secreto: str) -> str:
    """The short prefix shown in lists (never enough to use the secret)."""
    return secreto[: len(PREFIJO_TOKEN) + LARGO_VISIBLE]
