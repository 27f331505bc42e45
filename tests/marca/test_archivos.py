"""GET /auth/api/v1/auth/marca/archivo/{slot}: bytes, real Content-Type, ETag, 304, 404, CSP."""

from __future__ import annotations

import hashlib

import pytest

from apps.marca import services
from tests.marca.factories import URL_MARCA, ico, png, poner_imagen, svg, url_archivo, webp
from tests.sobre import error_del_sobre

pytestmark = pytest.mark.django_db

REVALIDAR = "public, max-age=0, must-revalidate"


@pytest.mark.parametrize(
    ("fabrica", "content_type"),
    [
        (svg, "image/svg+xml"),
        (png, "image/png"),
        (ico, "image/x-icon"),
        (webp, "image/webp"),
    ],
)
@pytest.mark.parametrize("slot", ["logo", "isotipo", "favicon"])
def test_each_slot_serves_its_bytes_with_the_real_content_type(client, slot, fabrica, content_type):
    imagen = poner_imagen(slot, fabrica())
    r = client.get(url_archivo(slot))
    assert r.status_code == 200
    assert r["Content-Type"] == content_type
    assert r.content == bytes(imagen.contenido)
    assert r["ETag"] == f'"{hashlib.sha256(r.content).hexdigest()[:16]}"'
    assert r["Cache-Control"] == REVALIDAR
    assert r["X-Content-Type-Options"] == "nosniff"


def test_raster_bytes_are_served_exactly_as_uploaded(client):
    datos = png(lado=16)
    poner_imagen("favicon", datos)
    assert client.get(url_archivo("favicon")).content == datos


def test_svg_is_served_cleaned_with_a_sandboxing_csp(client):
    sucio = (
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">'
        b"<script>alert(2)</script><rect width='1' height='1'/></svg>"
    )
    poner_imagen("logo", sucio)
    r = client.get(url_archivo("logo"))
    assert r["Content-Type"] == "image/svg+xml"
    assert r["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    assert r["X-Content-Type-Options"] == "nosniff"
    assert b"<script" not in r.content and b"onload" not in r.content
    assert b"<rect" in r.content


def test_the_address_published_by_the_brand_serves_the_image(client):
    poner_imagen("isotipo", png())
    url = client.get(URL_MARCA).json()["data"]["isotipo_url"]
    r = client.get(url.removeprefix("http://testserver"))
    assert r.status_code == 200
    assert r["Content-Type"] == "image/png"


def test_the_current_version_in_the_query_makes_the_answer_immutable(client):
    poner_imagen("logo", png())
    version = client.get(URL_MARCA).json()["data"]["version"]
    r = client.get(url_archivo("logo"), {"v": version})
    assert r["Cache-Control"] == "public, max-age=31536000, immutable"
    viejo = client.get(url_archivo("logo"), {"v": "0123456789abcdef"})
    assert viejo["Cache-Control"] == REVALIDAR


@pytest.mark.parametrize("forma", ["{etag}", "W/{etag}", '"x", {etag}', "*"])
def test_if_none_match_with_the_image_etag_answers_304_with_empty_body(client, forma):
    poner_imagen("favicon", ico())
    etag = client.get(url_archivo("favicon"))["ETag"]
    r = client.get(url_archivo("favicon"), HTTP_IF_NONE_MATCH=forma.format(etag=etag))
    assert r.status_code == 304
    assert r.content == b""
    assert r["ETag"] == etag
    assert r["Cache-Control"] == REVALIDAR


def test_the_brand_etag_is_not_the_image_etag(client):
    poner_imagen("logo", png())
    etag_marca = client.get(URL_MARCA)["ETag"]
    r = client.get(url_archivo("logo"), HTTP_IF_NONE_MATCH=etag_marca)
    assert r.status_code == 200


def test_a_replaced_image_gets_a_new_etag_and_the_old_one_no_longer_matches(client):
    poner_imagen("logo", png((1, 2, 3, 255)))
    viejo = client.get(url_archivo("logo"))["ETag"]
    poner_imagen("logo", png((9, 9, 9, 255)))
    r = client.get(url_archivo("logo"), HTTP_IF_NONE_MATCH=viejo)
    assert r.status_code == 200
    assert r["ETag"] != viejo


def test_an_empty_slot_is_404_no_encontrado(client):
    r = client.get(url_archivo("logo"))
    assert r.status_code == 404
    cuerpo = r.json()
    assert cuerpo["success"] is False
    assert cuerpo["error"]["code"] == "NO_ENCONTRADO"


def test_a_removed_image_is_404_again(client):
    poner_imagen("isotipo", svg())
    assert client.get(url_archivo("isotipo")).status_code == 200
    services.quitar_imagen(slot="isotipo")
    r = client.get(url_archivo("isotipo"))
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "NO_ENCONTRADO"


@pytest.mark.parametrize("slot", ["banner", "LOGO", "logo.png", "..", "%00"])
def test_an_unknown_slot_is_404_no_encontrado(client, slot):
    poner_imagen("logo", png())
    r = client.get(url_archivo(slot))
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "NO_ENCONTRADO"


@pytest.mark.parametrize("metodo", ["post", "put", "delete"])
def test_other_methods_get_405_envelope(client, metodo):
    poner_imagen("logo", png())
    r = getattr(client, metodo)(url_archivo("logo"))
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"
    assert r["Allow"] == "GET, HEAD"


def test_unchanged_image_costs_zero_queries_for_200_and_304(client, django_assert_num_queries):
    poner_imagen("logo", svg())
    etag = client.get(url_archivo("logo"))["ETag"]  # warm-up
    with django_assert_num_queries(0):
        r = client.get(url_archivo("logo"))
    assert r.status_code == 200 and r.content.startswith(b"<?xml")
    with django_assert_num_queries(0):
        assert client.get(url_archivo("logo"), HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_assert_num_queries(0):
        assert client.get(url_archivo("favicon")).status_code == 404


def test_no_cors_header_for_a_foreign_origin(client):
    poner_imagen("logo", png())
    r = client.get(url_archivo("logo"), HTTP_ORIGIN="https://otro.example")
    assert r.status_code == 200
    assert "Access-Control-Allow-Origin" not in r


@pytest.mark.parametrize("metodo", ["PATCH", "OPTIONS", "TRACE"])
def test_every_other_method_gets_405_with_allow_get_head(client, metodo):
    poner_imagen("logo", png())
    r = client.generic(metodo, url_archivo("logo"))
    error_del_sobre(r, 405, "METODO_NO_PERMITIDO")
    assert r["Allow"] == "GET, HEAD"


def test_head_answers_the_get_headers_without_the_bytes(client):
    poner_imagen("logo", png())
    get = client.get(url_archivo("logo"))
    r = client.head(url_archivo("logo"))
    assert r.status_code == 200
    assert r.content == b""
    for cabecera in ("Content-Type", "Content-Length", "ETag", "Cache-Control"):
        assert r[cabecera] == get[cabecera]
    r304 = client.head(url_archivo("logo"), HTTP_IF_NONE_MATCH=get["ETag"])
    assert (r304.status_code, r304.content, r304["ETag"]) == (304, b"", get["ETag"])
