"""ULID-like identifiers: 26 Crockford base32 characters, ordered by creation time."""

from __future__ import annotations

import re
import secrets
import threading
import time

ALFABETO = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
PATRON = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")
_BITS_AZAR = 80
_MAX_AZAR = (1 << _BITS_AZAR) - 1

_candado = threading.Lock()
_ultimo: tuple[int, int] = (0, 0)


def codificar(valor: int) -> str:
    """A 128-bit integer as 26 Crockford base32 characters (most significant first)."""
    caracteres = []
    for _ in range(26):
        caracteres.append(ALFABETO[valor & 31])
        valor >>= 5
    return "".join(reversed(caracteres))


def nuevo_uid(ahora_ms: int | None = None) -> str:
    """48 bits of milliseconds + 80 random bits; monotonic within this process.

    Two identifiers made in the same millisecond (or after the clock stepped back) reuse the last
    time and add one to the random part, so sorting the strings sorts by creation order.
    """
    global _ultimo
    ms = int(time.time() * 1000) if ahora_ms is None else ahora_ms
    with _candado:
        ultimo_ms, ultimo_azar = _ultimo
        if ms <= ultimo_ms:
            ms, azar = ultimo_ms, ultimo_azar + 1
            if azar > _MAX_AZAR:  # 2**80 in one millisecond: borrow the next one
                ms, azar = ms + 1, secrets.randbits(_BITS_AZAR - 1)
        else:
            # One bit less than the maximum leaves room to increment within the millisecond.
            azar = secrets.randbits(_BITS_AZAR - 1)
        _ultimo = (ms, azar)
    return codificar((ms << _BITS_AZAR) | azar)


def es_uid(texto: str) -> bool:
    """True for a well-formed identifier."""
    return bool(PATRON.match(texto or ""))


def instante_ms(uid: str) -> int:
    """The creation time (milliseconds since the epoch) carried by an identifier."""
    valor = 0
    for caracter in uid[:10]:
        valor = valor * 32 + ALFABETO.index(caracter)
    return valor
