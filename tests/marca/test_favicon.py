"""/favicon.ico answers every page's tab: the brand's favicon, its isotype, or an icon drawn
from the brand (never a 404)."""

from __future__ import annotations

import re

import pytest

from tests.marca.factories import cambiar_marca, png, poner_imagen, svg

pytestmark = pytest.mark.django_db


def test_with_a_favicon_it_redirects_to_the_favicon_image(client):
    poner_imagen("favicon", png())
    poner_imagen("isotipo", svg())
    r = client.get("/favicon.ico")
    assert r.status_code == 302
    assert re.fullmatch(r"/auth/api/v1/auth/marca/archivo/favicon\?v=[0-9a-f]{16}", r["Location"])
    imagen = client.get(r["Location"])
    assert imagen.status_code == 200 and imagen["Content-Type"] == "image/png"


def test_without_a_favicon_the_isotype_serves(client):
    poner_imagen("isotipo", svg())
    r = client.get("/favicon.ico")
    assert r.status_code == 302 and "/archivo/isotipo?v=" in r["Location"]


def test_without_images_an_icon_is_drawn_with_the_brand_initial_and_colour(client):
    cambiar_marca(nombre="IDGP en línea", color_primario="#0B4F6C")
    r = client.get("/favicon.ico")
    assert r.status_code == 200
    assert r["Content-Type"] == "image/svg+xml"
    cuerpo = r.content.decode()
    assert 'fill="#0B4F6C"' in cuerpo and ">I</text>" in cuerpo and 'fill="#FFFFFF"' in cuerpo
    assert "sandbox" in r["Content-Security-Policy"]
    assert client.get("/favicon.ico", headers={"If-None-Match": r["ETag"]}).status_code == 304
    cambiar_marca(nombre="Otra marca")
    cambiada = client.get("/favicon.ico", headers={"If-None-Match": r["ETag"]})
    assert cambiada.status_code == 200 and ">O</text>" in cambiada.content.decode()


def test_a_name_with_markup_is_escaped_in_the_icon(client):
    cambiar_marca(nombre="<b>")
    assert ">&lt;</text>" in client.get("/favicon.ico").content.decode()


def test_only_reads_are_allowed(client):
    assert client.post("/favicon.ico").status_code == 405


def test_pages_link_the_icon_so_browsers_never_ask_for_a_missing_file(client):
    html = client.get("/cuentas/login/").content.decode()
    assert re.search(r'<link rel="icon" href="/favicon.ico\?v=[0-9a-f]{16}">', html)
    poner_imagen("favicon", png())
    html = client.get("/cuentas/login/").content.decode()
    assert re.search(r'<link rel="icon" href="[^"]*/marca/archivo/favicon\?v=', html)
