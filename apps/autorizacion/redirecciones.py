"""Which redirect URIs a client may register: https, or http to a loopback address (RFC 8252).

The library accepts `http` to any host once `http` is an allowed scheme (loopback clients need
it); this is the hub's narrower rule, applied to every way a client gets its URIs (registration,
metadata documents, the admin), refused as `invalid_redirect_uri` (RFC 7591 section 3.2.2).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def permitida(uri: str) -> bool:
    """True for an absolute https URI, or http to 127.0.0.1, localhost or [::1] (any port)."""
    try:
        partes = urlsplit(uri)
        partes.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        return False
    if partes.fragment or not partes.hostname or partes.username is not None:
        return False
    esquema = partes.scheme.lower()
    if esquema == "https":
        return True
    return esquema == "http" and partes.hostname.lower() in LOOPBACK


def anfitrion(uri: str) -> str:
    """The host a redirect URI sends people to (for the consent page and the admin)."""
    try:
        partes = urlsplit(uri)
        puerto = partes.port
    except ValueError:
        return ""
    host = (partes.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{puerto}" if puerto and host.strip("[]") in LOOPBACK else host


_ORIGEN_SEGURO = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")


def origen(uri: str) -> str:
    """scheme://host[:port] of a redirect URI, or "" when it is not one this module allows (or
    could not be written safely into a CSP header)."""
    if not permitida(uri):
        return ""
    partes = urlsplit(uri)
    valor = f"{partes.scheme.lower()}://{partes.netloc.lower()}"
    return valor if _ORIGEN_SEGURO.match(valor) else ""
