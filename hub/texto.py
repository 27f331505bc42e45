"""Text helpers: the normalized search form, and cleaning of text that people wrote."""

from __future__ import annotations

import re
import unicodedata

_ESPACIOS = re.compile(r"\s+")
# Control, zero-width and bidirectional-override characters: invisible, and able to disguise text.
_INVISIBLES = re.compile(
    "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    # Lone surrogates: valid in JSON escapes, refused by PostgreSQL's UTF-8.
    "\ud800-\udfff]"
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
