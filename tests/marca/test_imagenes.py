"""Image type from the bytes, size limit, damaged files, and SVG neutralization."""

from __future__ import annotations

import pytest
from defusedxml import ElementTree as DefusedET
from django.core.exceptions import ValidationError

from apps.marca import services
from apps.marca.imagenes import TAMANO_MAXIMO, detectar_tipo, validar_imagen
from apps.marca.models import ImagenMarca
from tests.marca.factories import ico, png, poner_imagen, svg, webp

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    ("datos", "tipo"),
    [
        (png(), "png"),
        (ico(), "ico"),
        (webp(), "webp"),
        (svg(), "svg"),
        (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "svg"),
        (b"\xef\xbb\xbf  <svg xmlns='http://www.w3.org/2000/svg'></svg>", "svg"),
        (b"<svg><rect/></svg>", "svg"),
    ],
)
def test_type_is_detected_from_the_bytes(datos, tipo):
    assert detectar_tipo(datos) == tipo


@pytest.mark.parametrize(
    "datos",
    [
        b"",
        b"GIF89a\x01\x00\x01\x00",
        b"\xff\xd8\xff\xe0 jpeg",
        b"<html><body>hola</body></html>",
        b"<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>",  # malformed XML
        b"<x:svg xmlns:x='urn:otro'/>",  # an svg root in another namespace
        b"\x00\x00\x02\x00\x01\x00 cursor",
        b"RIFF\x00\x00\x00\x00WAVEfmt ",
        b"texto cualquiera",
    ],
)
def test_unknown_bytes_are_not_an_image(datos):
    assert detectar_tipo(datos) is None


def test_garbage_bytes_are_rejected_with_a_spanish_message():
    with pytest.raises(ValidationError) as exc:
        validar_imagen(b"\x13\x37 esto no es una imagen")
    assert "Formato no admitido" in exc.value.messages[0]


def test_a_truncated_png_is_rejected_as_damaged():
    with pytest.raises(ValidationError) as exc:
        validar_imagen(png(lado=64)[:40])
    assert "dañado" in exc.value.messages[0]


def test_an_empty_file_is_rejected():
    with pytest.raises(ValidationError) as exc:
        validar_imagen(b"")
    assert exc.value.messages == ["El archivo está vacío."]


def test_files_over_512_kb_are_rejected_and_512_kb_is_accepted():
    relleno = b"<!--" + b"x" * (TAMANO_MAXIMO - 200) + b"-->"
    justo = b"<svg xmlns='http://www.w3.org/2000/svg'>" + relleno + b"</svg>"
    assert len(justo) <= TAMANO_MAXIMO
    assert validar_imagen(justo).tipo == "svg"
    with pytest.raises(ValidationError) as exc:
        validar_imagen(png() + b"\x00" * TAMANO_MAXIMO)
    assert "máximo es 512 KB" in exc.value.messages[0]


def test_raster_images_larger_than_4096_pixels_per_side_are_rejected():
    from io import BytesIO

    from PIL import Image

    salida = BytesIO()
    Image.new("1", (5000, 1)).save(salida, format="PNG")
    with pytest.raises(ValidationError) as exc:
        validar_imagen(salida.getvalue())
    assert "5000×1" in exc.value.messages[0]


def test_an_entity_expansion_bomb_is_not_accepted():
    bomba = (
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>'
    )
    with pytest.raises(ValidationError):
        validar_imagen(bomba)


def test_an_external_entity_is_not_accepted():
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'
    )
    with pytest.raises(ValidationError):
        validar_imagen(xxe)


SVG_SUCIO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     viewBox="0 0 100 40" onload="alert('carga')">
  <script type="text/javascript">alert('script')</script>
  <style>@import url(https://evil.example/x.css);
    .c { fill: url(#grad); stroke: url(https://evil.example/s) }</style>
  <defs><linearGradient id="grad"><stop offset="0" stop-color="#0B4F6C"/></linearGradient></defs>
  <a xlink:href="javascript:alert('enlace')"><rect class="c" width="10" height="10"
     onclick="robar()" ONMOUSEOVER="x()" inkscape:label="capa" style="fill:url(https://evil.example/f)"/></a>
  <a href=" java&#x09;script:alert(1)"><circle r="3"/></a>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
  <use href="#grad"/><use xlink:href="https://evil.example/sprite.svg#icono"/>
  <image href="https://evil.example/rastreo.png" width="1" height="1"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <set attributeName="href" to="javascript:alert('set')"/>
  <animate attributeName="href" values="javascript:alert('animate')"/>
  <iframe src="https://evil.example"/>
  <text x="1" y="30" xml:space="preserve">Gestión &amp; Pública</text>
</svg>
"""


@pytest.fixture
def limpio() -> bytes:
    return validar_imagen(SVG_SUCIO.encode()).contenido


def test_svg_scripts_and_event_handlers_are_removed(limpio):
    texto = limpio.decode().lower()
    assert "<script" not in texto
    assert "alert" not in texto
    assert "onload" not in texto and "onclick" not in texto and "onmouseover" not in texto


def test_svg_javascript_links_foreign_object_and_animations_are_removed(limpio):
    texto = limpio.decode().lower()
    assert "javascript" not in texto
    assert "foreignobject" not in texto and "<div" not in texto
    assert "<set" not in texto and "<animate" not in texto and "<iframe" not in texto


def test_svg_external_references_are_removed_and_local_ones_kept(limpio):
    texto = limpio.decode()
    assert "evil.example" not in texto
    assert "@import" not in texto
    assert 'href="#grad"' in texto
    assert "url(#grad)" in texto
    assert 'href="data:image/png;base64,iVBORw0KGgo="' in texto


def test_svg_editor_metadata_is_dropped_and_the_drawing_kept(limpio):
    raiz = DefusedET.fromstring(limpio)
    assert raiz.tag == f"{SVG_NS}svg"
    assert raiz.get("viewBox") == "0 0 100 40"
    assert raiz.find(f".//{SVG_NS}rect") is not None
    assert raiz.find(f".//{SVG_NS}circle") is not None
    texto = raiz.find(f".//{SVG_NS}text")
    assert texto.text == "Gestión & Pública"
    assert texto.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    assert b"inkscape" not in limpio


def test_cleaning_a_clean_svg_changes_nothing():
    primera = validar_imagen(SVG_SUCIO.encode())
    segunda = validar_imagen(primera.contenido)
    assert segunda.contenido == primera.contenido
    assert segunda.sha256 == primera.sha256


@pytest.mark.django_db
def test_the_stored_svg_is_the_cleaned_one():
    imagen = poner_imagen("logo", SVG_SUCIO.encode())
    assert imagen.tipo == "svg"
    assert b"script" not in bytes(imagen.contenido)
    assert imagen.tamano == len(bytes(imagen.contenido))


@pytest.mark.django_db
def test_a_rejected_image_leaves_the_previous_one_untouched():
    anterior = poner_imagen("favicon", png())
    with pytest.raises(ValidationError) as exc:
        services.guardar_imagen(slot="favicon", datos=b"no es imagen")
    assert "favicon" in exc.value.message_dict
    actual = ImagenMarca.objects.get(slot="favicon")
    assert actual.sha256 == anterior.sha256


@pytest.mark.django_db
def test_an_unknown_slot_is_rejected_by_the_service():
    with pytest.raises(ValidationError) as exc:
        services.guardar_imagen(slot="banner", datos=png())
    assert "slot" in exc.value.message_dict
    assert not ImagenMarca.objects.exists()
