"""Browser tests: the top menu folds behind «Menú» on a phone; open it before using its links."""

from __future__ import annotations


def abrir_menu(pagina) -> None:
    """Unfold the top menu if this width folds it (a phone); at 1280 px it is always in sight."""
    boton = pagina.locator("#menu-boton")
    if boton.is_visible() and boton.get_attribute("aria-expanded") != "true":
        boton.click()
