"""What the browser tests of the request page share: the two widths, signing in, the notice."""

from __future__ import annotations

from tests.factories import CONTRASENA

ANCHOS = [(1280, 900), (390, 844)]


def ingresar(pagina, usuario: str, destino: str) -> None:
    """Sign in through the sign-in page and land on `destino`."""
    pagina.goto(f"{pagina.base}/cuentas/login/?next={destino}")
    pagina.get_by_label("Usuario").fill(usuario)
    pagina.get_by_label("Contraseña", exact=True).fill(CONTRASENA)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(pagina.base + destino)


def aviso(pagina) -> str:
    """The page's success notice."""
    return pagina.locator("p[role=status]").inner_text()
