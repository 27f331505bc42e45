"""Text helpers: the normalized search form, and cleaning of text that people wrote."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_ESPACIOS = re.compile(r"\s+")
# Control, zero-width and bidirectional-override characters: invisible, and able to disguise text.
_INVISIBLES = re.compile(
    "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    # Lone surrogates: valid in JSON escapes, refused by PostgreSQL's UTF-8.
    "\ud800-\udfff]"
)


_SUSTITUTOS = re.compile("[\ud800-\udfff]")

# Month names as Spanish dates write them ("marzo de 2026"): lower case, January first.
MESES = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)


def normalizar(texto: str | None) -> str:
    """Lower case, accents stripped, spaces folded: the form stored in search columns."""
    if not texto:
        return ""
    descompuesto = unicodedata.normalize("NFKD", texto)
    sin_marcas = "".join(c for c in descompuesto if not unicodedata.combining(c))
    return _ESPACIOS.sub(" ", sin_marcas.casefold()).strip()


def limpiar(texto: str | None) -> str:
    """Remove invisible control characters from text people wrote (kept otherwise as data)."""
    if not texto:
        return ""
    return _INVISIBLES.sub("", texto)


def recortar(texto: str | None, maximo: int) -> str:
    """Cleaned text cut to `maximo` characters with an ellipsis."""
    limpio = limpiar(texto).strip()
    if len(limpio) <= maximo:
        return limpio
    return limpio[: maximo - 1].rstrip() + "…"


def tiene_sustitutos(valor: Any) -> bool:
    """True when a lone UTF-16 surrogate hides anywhere in a JSON value, keys included.

    JSON escapes can write them (\\ud800), but no UTF-8 text holds them: PostgreSQL refuses them
    and an answer that echoes them cannot be encoded. A loop, not recursion: the value may be
    nested as deep as the parser allowed.
    """
    pila = [valor]
    while pila:
        actual = pila.pop()
        if isinstance(actual, str):
            if _SUSTITUTOS.search(actual):
                return True
        elif isinstance(actual, dict):
            pila.extend(actual)
            pila.extend(actual.values())
        elif isinstance(actual, list):
            pila.extend(actual)
    return False


def sin_sustitutos(texto: str) -> str:
    """The text with each lone surrogate shown as U+FFFD, so that it can be answered."""
    return _SUSTITUTOS.sub("\ufffd", texto)
