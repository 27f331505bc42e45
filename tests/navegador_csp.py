"""Browser tests: collect every Content-Security-Policy violation a page reports."""

from __future__ import annotations

# Runs in every document before its own scripts: a violation event becomes a console error that
# survives navigations (the Python side keeps the list, the page's window does not).
_ESCUCHA = """
document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violada: " + e.violatedDirective + " " + (e.blockedURI || "inline") +
                " en " + (e.sourceFile || location.pathname) + ":" + e.lineNumber);
});
"""


def vigilar_csp(pagina) -> list[str]:
    """Start watching `pagina`; the returned list fills with each violation it reports."""
    violaciones: list[str] = []
    pagina.add_init_script(_ESCUCHA)

    def al_mensaje(mensaje) -> None:
        texto = mensaje.text
        if "CSP violada" in texto or "Content Security Policy" in texto:
            violaciones.append(texto)

    pagina.on("console", al_mensaje)
    return violaciones
