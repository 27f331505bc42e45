"""An SVG with active content uploaded as a brand image is neutralized: the bytes served hold no
script, handler, javascript: link, foreignObject or outside reference, an entity bomb is refused,
and the answer is sandboxed by CSP and marked nosniff."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.marca.imagenes import validar_imagen
from apps.marca.models import ImagenMarca, Marca
from tests.factories import UserFactory
from tests.marca.factories import poner_imagen, svg, url_archivo
from tests.marca.formulario_admin import CAMBIO, formulario_marca

pytestmark = pytest.mark.django_db


MALICIOSO = b"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 10 10" onload="alert('onload')">
  <script type="text/javascript">alert('script')</script>
  <svg:script xmlns:svg="http://www.w3.org/2000/svg">alert('prefijado')</svg:script>
  <rect width="10" height="10" fill="#0B4F6C" onclick="alert('clic')" ONMOUSEOVER="alert(1)"/>
  <a href="javascript:alert('href')"><text x="1" y="5">clic</text></a>
  <a xlink:href="&#106;ava&#x09;script:alert('entidad')"><circle r="2"/></a>
  <foreignObject width="10" height="10">
    <iframe xmlns="http://www.w3.org/1999/xhtml" src="https://malo.example/x"></iframe>
  </foreignObject>
  <image xlink:href="https://malo.example/rastreo.png" width="1" height="1"/>
  <use href="https://malo.example/simbolos.svg#s"/>
  <set attributeName="href" to="javascript:alert('set')"/>
  <animate attributeName="href" values="javascript:alert('animate')"/>
  <style>@import url(https://malo.example/estilo.css);
    rect { fill: url(https://malo.example/f) }</style>
  <g style="background-image: url(https://malo.example/fondo.png)"><path d="M0 0h1v1z"/></g>
</svg>
"""

BOMBA = b"""<?xml version="1.0"?>
<!DOCTYPE svg [
  <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
  <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
  <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&f;</text></svg>
"""

EXTERNA = b"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&x;</text></svg>
"""

PROHIBIDOS = (
    "script",
    "onload",
    "onclick",
    "onmouseover",
    "javascript",
    "foreignobject",
    "iframe",
    "malo.example",
    "@import",
    "<!entity",
    "<!doctype",
    "alert(",
    "<set",
    "<animate",
)


def _servido(client, slot: str):
    r = client.get(url_archivo(slot))
    assert r.status_code == 200
    return r


def _neutralizado(r) -> None:
    assert r["Content-Type"] == "image/svg+xml"
    assert r["X-Content-Type-Options"] == "nosniff"
    politica = [p.strip() for p in r["Content-Security-Policy"].split(";")]
    assert "sandbox" in politica
    assert "default-src 'none'" in politica
    texto = r.content.decode("utf-8").lower()
    presentes = [p for p in PROHIBIDOS if p in texto]
    assert presentes == [], texto
    # What is harmless survives: the drawing is still the uploaded one.
    assert 'fill="#0b4f6c"' in texto and "<rect" in texto and "<path" in texto


def test_the_brand_service_strips_every_active_part_of_an_uploaded_svg(client):
    poner_imagen("logo", MALICIOSO)
    _neutralizado(_servido(client, "logo"))
    guardado = ImagenMarca.objects.get(slot="logo").contenido
    assert b"script" not in bytes(guardado).lower()


def test_the_admin_upload_is_neutralized_the_same_way(client):
    Marca.cargar()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    archivo = SimpleUploadedFile("isotipo.svg", MALICIOSO, content_type="image/svg+xml")
    r = client.post(CAMBIO, formulario_marca(isotipo_archivo=archivo))
    assert r.status_code == 302, r.content[:2000]
    client.logout()
    _neutralizado(_servido(client, "isotipo"))


@pytest.mark.parametrize("datos", [BOMBA, EXTERNA], ids=["bomba_de_entidades", "entidad_externa"])
def test_an_svg_with_a_dtd_is_refused_and_the_slot_keeps_its_image(client, datos):
    poner_imagen("favicon", svg("#123456"))
    with pytest.raises(ValidationError):
        poner_imagen("favicon", datos)
    r = _servido(client, "favicon")
    assert b"#123456" in r.content
    assert b"root:" not in r.content and b"aaaa" not in r.content


def test_the_admin_refuses_the_entity_bomb_with_a_form_error(client):
    Marca.cargar()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    archivo = SimpleUploadedFile("logo.svg", BOMBA, content_type="image/svg+xml")
    r = client.post(CAMBIO, formulario_marca(logo_archivo=archivo))
    assert r.status_code == 200  # the form again, with its errors
    assert list(r.context["adminform"].form.errors) == ["logo_archivo"]
    assert not ImagenMarca.objects.filter(slot="logo").exists()


# --- CSS external references, in any spelling a browser reads -----------------------------------

CSS_EXTERNAS = [
    "@import url(https://malo.example/a.css);",
    '@import "https://malo.example/a.css";',
    "@IMPORT 'https://malo.example/a.css'",
    "@\\69mport 'https://malo.example/a.css';",
    "@im/**/port 'https://malo.example/a.css';",
    "rect { fill: URL(https://malo.example/f) }",
    "rect { fill: \\75 rl(https://malo.example/f) }",
    "rect { fill: \\000075rl(https://malo.example/f) }",
    "rect { fill: \\55\\52\\4c(https://malo.example/f) }",
    "rect { fill: u\\rl(https://malo.example/f) }",
    "rect { fill: u\\72 l('https://malo.example/f') }",
    "rect { fill: u/**/rl(https://malo.example/f) }",
    "rect { fill: url( 'https://malo.example/f' ) }",
    "rect { fill: url(//malo.example/f) }",
    "rect { fill: url(https://malo.example/sin-cierre",
    "rect { background-image: image-set('https://malo.example/a.png' 1x) }",
    'rect { background-image: IMAGE-SET("https://malo.example/a.png" 1x) }',
    "rect { background-image: -webkit-image-set(url(https://malo.example/a.png) 1x) }",
    "rect { background-image: image\\-set('https://malo.example/a.png' 1x) }",
    "rect { background-image: \\69 mage-set('https://malo.example/a.png' 1x) }",
    "rect { background-image: image('https://malo.example/a.png') }",
    "rect { background: cross-fade(url(https://malo.example/a.png), red 50%) }",
    "@font-face { font-family: x; src: url(https://malo.example/f.woff) format('woff') }",
    "rect { cursor: url(https://malo.example/c.cur), auto }",
    "rect { --fondo: url(https://malo.example/f); fill: var(--fondo) }",
    # What the browser reads as a string or comment is cleaned as if it were CSS: never less.
    'rect { font-family: "a/*"; fill: url(https://malo.example/f); content: "*/" }',
    "rect { content: '\\27 ;fill:url(https://malo.example/f)' }",
]


def _con_estilo(css: str) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        f'<style>{escape(css)}</style><rect width="10" height="10" fill="#0B4F6C"/>'
        f"<g style={quoteattr(css)} fill={quoteattr(css)}><path d='M0 0h1v1z'/></g></svg>"
    ).encode()


def _sin_referencias_externas(limpio: bytes) -> None:
    texto = limpio.decode("utf-8").lower()
    assert "malo.example" not in texto, texto
    for resto in ("@import", "image-set", "\\", "/*"):
        assert resto not in texto, texto
    # The drawing itself survives.
    assert 'fill="#0b4f6c"' in texto and "<path" in texto


@pytest.mark.parametrize("css", CSS_EXTERNAS)
def test_css_external_references_are_removed_from_style_and_attributes(css):
    _sin_referencias_externas(validar_imagen(_con_estilo(css)).contenido)


def test_an_escaped_backslash_is_not_read_twice():
    # CSS "\\75 rl(" is an escaped backslash, "75" and a function "rl(": no url. The cleaner
    # must not leave "\75 rl(", which a browser would then read as url(.
    limpio = validar_imagen(_con_estilo("rect { fill: \\\\75 rl(https://malo.example/f) }"))
    texto = limpio.contenido.decode().lower()
    assert "\\" not in texto and "url(" not in texto


def test_css_without_references_keeps_its_meaning_and_local_urls_stay():
    css = "rect { fill: url(#grad); stroke: URL( '#borde' ) } .c { font-family: 'Open Sans' }"
    limpio = validar_imagen(_con_estilo(css)).contenido.decode()
    assert "url(#grad)" in limpio and "URL( '#borde' )" in limpio
    assert "font-family: 'Open Sans'" in limpio or "font-family: &apos;Open Sans&apos;" in limpio


def test_an_escaped_css_reference_is_removed_from_the_served_svg(client):
    poner_imagen("logo", _con_estilo("rect { fill: \\75 rl(https://malo.example/f) }"))
    r = _servido(client, "logo")
    assert b"malo.example" not in r.content
    assert b"\\" not in r.content
