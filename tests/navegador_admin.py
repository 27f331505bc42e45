"""Browser tests: signing in to the admin through its own page, as a person would."""

from __future__ import annotations

from tests.factories import CONTRASENA


def ingresar_al_admin(pagina, usuario: str) -> None:
    """Sign `usuario` (made by the factory, so with its password) in on the admin's sign-in
    page; returns once the admin's header shows the person."""
    pagina.goto(pagina.base + "/admin/login/?next=/admin/")
    pagina.fill("input[name=username]", usuario)
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("input[type=submit]")
    pagina.wait_for_selector("#user-tools")
