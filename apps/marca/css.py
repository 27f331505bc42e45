"""CSS of an uploaded SVG (`<style>`, `style=` and presentation attributes) without references to
anything outside the image: `@import`, and `url(...)` (other than a local `#id`), `image-set(...)`,
`image(...)`, `cross-fade(...)`, `element(...)`, `src(...)`, `attr(...)`, prefixed or not.

Browsers undo CSS escapes (`\\75 rl(` is `url(`) and skip comments, so the cleaner first writes the
CSS the way a browser reads it: escapes decoded, comments removed, no backslash left. It then
removes the references from that text and returns it, so what is served is exactly what was
checked. Text the browser would read as a string or comment is cleaned as if it were CSS: a
harmless string may lose a `url(` or a `/*`, never the other way round.
"""

from __future__ import annotations

import re

# A CSS escape: up to six hex digits and one optional white space, an escaped newline (nothing),
# or any other escaped character (itself). CSS Syntax 3, section 4.3.7.
_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\r\n\f])|(.))", re.S)
_COMENTARIO = re.compile(r"/\*.*?(?:\*/|\Z)", re.S)
_IMPORT = re.compile(r"@import\b[^;]*;?", re.I)
# A function that can fetch: the name must start there (a longer name is another function).
_FUNCION = re.compile(
    r"(?<![\w-])(?:-[a-z]+-)?(url|image-set|image|cross-fade|element|src|attr)\(", re.I
)


def _caracter(m: re.Match) -> str:
    hexadecimal, salto, otro = m.groups()
    if hexadecimal is not None:
        punto = int(hexadecimal, 16)
        if punto == 0 or 0xD800 <= punto <= 0xDFFF or punto > 0x10FFFF:
            return "\ufffd"
        return chr(punto)
    return "" if salto is not None else otro


def _cierre(texto: str, inicio: int) -> int:
    """Index just past the ")" that closes the function opened before `inicio` (strings and
    nested parentheses skipped); the end of the text when it is never closed, as a browser reads
    it."""
    profundidad, i, comilla = 1, inicio, ""
    while i < len(texto):
        c = texto[i]
        if comilla:
            if c == comilla:
                comilla = ""
        elif c in "'\"":
            comilla = c
        elif c == "(":
            profundidad += 1
        elif c == ")":
            profundidad -= 1
            if profundidad == 0:
                return i + 1
        i += 1
    return len(texto)


def _es_local(nombre: str, argumento: str) -> bool:
    """url(#id) (quoted or not) points inside the image itself."""
    return nombre.lower() == "url" and argumento.strip().strip("'\"").strip().startswith("#")


def _sin_funciones(texto: str) -> str:
    partes, desde = [], 0
    for m in _FUNCION.finditer(texto):
        if m.start() < desde:
            continue  # inside a function already removed, e.g. url() in -webkit-image-set()
        fin = _cierre(texto, m.end())
        if _es_local(m.group(1), texto[m.end() : fin - 1]):
            continue
        partes.append(texto[desde : m.start()])
        partes.append("none")
        desde = fin
    partes.append(texto[desde:])
    return "".join(partes)


def _una_pasada(texto: str) -> str:
    texto = _ESCAPE.sub(_caracter, texto)
    texto = _COMENTARIO.sub("", texto).replace("\\", "")
    return _sin_funciones(_IMPORT.sub("", texto))


def limpiar_css(texto: str) -> str:
    """The CSS as a browser reads it, without external references; idempotent.

    Repeated until nothing changes: removing one piece can join two others into a new escape,
    comment or `@import`. Every pass that changes something makes the text shorter, so it ends.
    """
    anterior = None
    while texto != anterior:
        anterior, texto = texto, _una_pasada(texto)
    return texto
