"""Secrets of the assistant: the prefixes of personal tokens and API keys; their format,
checksum and digest are the hub's (hub.secretos), named here for the assistant's modules."""

from __future__ import annotations

from hub.secretos import (
    LARGO_VISIBLE,
    bien_formado,
    chequeo,
    componer,
    derivar,
    generar,
    huella,
    huella_si_bien_formado,
)

__all__ = [
    "PREFIJO_CLAVE",
    "PREFIJO_TOKEN",
    "bien_formado",
    "chequeo",
    "componer",
    "derivar",
    "generar",
    "huella",
    "huella_si_bien_formado",
    "visible",
]

PREFIJO_TOKEN = "sgimcp_"
PREFIJO_CLAVE = "sgiapi_"


def visible(secreto: str) -> str:
    """The short prefix shown in lists (never enough to use the secret)."""
    return secreto[: len(PREFIJO_TOKEN) + LARGO_VISIBLE]
