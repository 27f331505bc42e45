"""Secrets the hub issues: format, checksum and digest (personal tokens, API keys, OAuth tokens,
unlock links).

A secret is `<prefix>` + 32 random base62 characters + a 6-character checksum: the CRC32 of the
prefix and random part, written in base62 and left-padded with zeros. The checksum lets a secret
scanner recognize a leaked token offline (as GitHub's tokens), and lets the server refuse typos
without touching the database. Only the SHA-256 digest is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
import zlib

ALFABETO = string.digits + string.ascii_uppercase + string.ascii_lowercase
LARGO_ALEATORIO = 32
LARGO_CHEQUEO = 6
LARGO_VISIBLE = 6  # random characters kept, after the prefix, to recognize a secret in lists

# Every secret the hub issues (the assistant's tokens and keys, OAuth's, unlock links) alike.
_FORMATO = re.compile(
    rf"^(sgi[a-z]{{3}}_)([0-9A-Za-z]{{{LARGO_ALEATORIO}}})([0-9A-Za-z]{{{LARGO_CHEQUEO}}})$"
)


def base62(numero: int, largo: int) -> str:
    """`numero` in base62, left-padded with '0' to `largo` characters."""
    cifras = []
    while numero:
        numero, resto = divmod(numero, 62)
        cifras.append(ALFABETO[resto])
    return "".join(reversed(cifras)).rjust(largo, "0")


def chequeo(cuerpo: str) -> str:
    """The 6-character checksum of prefix + random part."""
    return base62(zlib.crc32(cuerpo.encode("ascii")), LARGO_CHEQUEO)


def componer(prefijo: str, aleatorio: str) -> str:
    cuerpo = prefijo + aleatorio
    return cuerpo + chequeo(cuerpo)


def generar(prefijo: str) -> str:
    """A new random secret with its checksum."""
    aleatorio = "".join(secrets.choice(ALFABETO) for _ in range(LARGO_ALEATORIO))
    return componer(prefijo, aleatorio)


def derivar(prefijo: str, semilla: bytes, etiqueta: str) -> str:
    """A deterministic secret from a key and a label (demo data only)."""
    digest = hmac.new(semilla, etiqueta.encode("utf-8"), hashlib.sha256).digest()
    numero = int.from_bytes(digest, "big")
    aleatorio = base62(numero, LARGO_ALEATORIO)[-LARGO_ALEATORIO:]
    return componer(prefijo, aleatorio)


def bien_formado(secreto: str, prefijo: str) -> bool:
    """True when the secret has the right prefix, length, alphabet and checksum."""
    coincide = _FORMATO.match(secreto)
    if coincide is None or coincide.group(1) != prefijo:
        return False
    return hmac.compare_digest(chequeo(coincide.group(1) + coincide.group(2)), coincide.group(3))


def huella(secreto: str) -> str:
    """SHA-256 hex digest: what the database keeps."""
    return hashlib.sha256(secreto.encode("utf-8")).hexdigest()


def huella_si_bien_formado(secreto: str, prefijo: str) -> str | None:
    """The digest of a well-formed secret of this prefix; None for anything else (a typo, another
    kind): what a credential check needs, in one step."""
    return huella(secreto) if bien_formado(secreto, prefijo) else None
