"""Colour arithmetic of the brand: WCAG contrast, readable text and link colours."""

from __future__ import annotations

BLANCO = "#FFFFFF"
CASI_NEGRO = "#1A1A1A"
# WCAG 2.x AA for normal text: links and text drawn in a brand colour on white need this much.
CONTRASTE_MINIMO = 4.5


def _canales(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _hex(canales: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02X}" for c in canales)


def luminancia(color: str) -> float:
    """Relative luminance of a #RRGGBB colour (WCAG 2.x)."""
    lineales = []
    for canal in _canales(color):
        c = canal / 255
        lineales.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * lineales[0] + 0.7152 * lineales[1] + 0.0722 * lineales[2]


def contraste(uno: str, otro: str) -> float:
    """WCAG contrast ratio between two colours, from 1 (none) to 21 (black on white)."""
    claro, oscuro = sorted((luminancia(uno), luminancia(otro)), reverse=True)
    return (claro + 0.05) / (oscuro + 0.05)


def texto_sobre(color: str) -> str:
    """White or near-black, whichever reads better on `color`."""
    return BLANCO if contraste(color, BLANCO) >= contraste(color, CASI_NEGRO) else CASI_NEGRO


def oscurecer(color: str, factor: float) -> str:
    """The same hue with every channel multiplied by `factor` (0..1)."""
    r, g, b = _canales(color)
    return _hex((r * factor, g * factor, b * factor))


def legible_sobre_blanco(color: str) -> bool:
    """True when text in `color` on white reaches the AA contrast."""
    return contraste(color, BLANCO) >= CONTRASTE_MINIMO


def enlace_legible(color: str) -> str:
    """`color` if it reads on white; otherwise the lightest darker shade of it that does."""
    factor = 1.0
    candidato = color.upper()
    while not legible_sobre_blanco(candidato) and factor > 0:
        factor = round(factor - 0.05, 2)
        candidato = oscurecer(color, factor)
    return candidato
