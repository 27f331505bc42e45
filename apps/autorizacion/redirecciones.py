"""Which redirect URIs a client may use: https, http to a loopback address (RFC 8252 7.3), or a
private-use scheme in reverse-domain form (RFC 8252 7.1).

One rule for every way a client gets its URIs (registration, metadata documents, the admin) and
for the authorization request itself (apps.autorizacion.servidor.Validador), refused as
`invalid_redirect_uri` (RFC 7591 section 3.2.2). The library accepts `http` to any host once
`http` is an allowed scheme, and any scheme an application names; this is the hub's narrower
rule:
- a host is ASCII letters, digits, hyphens and dots, or an IP literal: an internationalized name
  is sent in its `xn--` form, so that a look-alike (`аpple.com` with a Cyrillic а) is never
  registered under a name that reads as another;
- a port, when given, is 1 to 65535;
- a private-use scheme contains a period (`com.example.app:/callback`: a domain the native
  application's publisher controls, reversed), and is never one a browser runs or reads
  locally (`javascript`, `data`, `file`...).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
# Schemes a browser executes, reads locally or treats as itself: never a callback, whatever form.
PROHIBIDOS = frozenset({"javascript", "data", "file", "vbscript", "about", "blob", "filesystem"})
# RFC 3986 3.1 scheme characters, with at least one period (RFC 8252 7.1, RFC 7595 3.8).
_ESQUEMA_PRIVADO = re.compile(r"^[a-z][a-z0-9+\-]*(?:\.[a-z0-9+\-]+)+$")
_ETIQUETA = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def _host_ascii(host: str) -> bool:
    """An IP literal, or a name of LDH labels (an IDN only in its xn-- form)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    etiquetas = host.removesuffix(".").split(".")
    return len(host) <= 253 and all(_ETIQUETA.match(e) for e in etiquetas)


def esquema_privado(uri: str) -> str:
    """The private-use scheme of this URI (lowercase) when the hub accepts it, else ""."""
    esquema, separador, _ = uri.partition(":")
    esquema = esquema.lower()
    if not separador or esquema in PROHIBIDOS or not _ESQUEMA_PRIVADO.match(esquema):
        return ""
    return esquema


def permitida(uri: str) -> bool:
    """True for https, http to 127.0.0.1, localhost or [::1] (any valid port), or a private-use
    scheme with a period; never with a fragment or credentials."""
    try:
        partes = urlsplit(uri)
        puerto = partes.port
    except ValueError:
        return False
    if "#" in uri or partes.username is not None or puerto == 0:
        return False
    esquema = partes.scheme.lower()
    if esquema in ("http", "https"):
        host = (partes.hostname or "").lower()
        if not host or not _host_ascii(host):
            return False
        return esquema == "https" or host in LOOPBACK
    return bool(esquema_privado(uri)) and not any(c.isspace() for c in uri)


def esquemas(uris: list[str]) -> list[str]:
    """The schemes the library may redirect to for these URIs: https, http (loopback only, as
    `permitida` checks) and each accepted private-use scheme among them."""
    privados = (esquema_privado(u) for u in uris if permitida(u))
    return ["https", "http", *dict.fromkeys(e for e in privados if e)]


def anfitrion(uri: str) -> str:
    """The host a redirect URI sends people to (for the consent page and the admin); for a
    private-use scheme, the scheme (the application that registered it)."""
    if privado := esquema_privado(uri):
        return f"{privado}:"
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
    """The CSP source of a redirect URI: scheme://host[:port], or `scheme:` for a private-use
    scheme; "" when it is not one this module allows (or could not be written safely into a CSP
    header)."""
    if not permitida(uri):
        return ""
    if privado := esquema_privado(uri):
        return f"{privado}:"  # only the scheme's characters: safe in the header as it is
    partes = urlsplit(uri)
    valor = f"{partes.scheme.lower()}://{partes.netloc.lower()}"
    return valor if _ORIGEN_SEGURO.match(valor) else ""
