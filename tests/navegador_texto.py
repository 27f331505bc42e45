"""Browser tests: what a person sees of the text: words broken across lines, columns cut off."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CAPTURAS

# Every run of non-blank characters inside `selector` whose visible boxes sit on more than one
# line. Text inside a box 1 px wide (visually hidden labels for screen readers) is skipped.
_PALABRAS_PARTIDAS = """
(selector) => {
  const partidas = [];
  for (const raiz of document.querySelectorAll(selector)) {
    const caminante = document.createTreeWalker(raiz, NodeFilter.SHOW_TEXT);
    while (caminante.nextNode()) {
      const nodo = caminante.currentNode;
      let oculto = false;
      for (let e = nodo.parentElement; e && e !== raiz.parentElement; e = e.parentElement) {
        const caja = e.getBoundingClientRect();
        if (caja.width <= 1 || caja.height <= 1 || getComputedStyle(e).display === "none") {
          oculto = true;
          break;
        }
      }
      if (oculto) continue;
      const patron = /\\S+/g;
      let m;
      while ((m = patron.exec(nodo.textContent))) {
        const rango = document.createRange();
        rango.setStart(nodo, m.index);
        rango.setEnd(nodo, m.index + m[0].length);
        const lineas = new Set(
          [...rango.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))
        );
        if (lineas.size > 1) partidas.push(m[0]);
      }
    }
  }
  return partidas;
}
"""


def palabras_partidas(pagina, selector: str) -> list[str]:
    """The words inside `selector` that the browser broke across lines."""
    return pagina.evaluate(_PALABRAS_PARTIDAS, selector)


def ancho_de_pagina(pagina) -> int:
    """The document's width: more than the viewport means a horizontal scroll bar."""
    return pagina.evaluate("document.documentElement.scrollWidth")


def capturar(pagina, nombre: str) -> Path:
    """A full-page screenshot under var/capturas/ (not committed; look at it)."""
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    ruta = CAPTURAS / f"{nombre}.png"
    pagina.screenshot(path=str(ruta), full_page=True)
    return ruta
