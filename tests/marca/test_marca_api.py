"""GET /auth/api/v1/auth/marca: fields, ETag/version, 304 variants, cost, CORS, methods."""

from __future__ import annotations

import re

import pytest

from apps.marca.models import DEFAULTS
from tests.marca.factories import URL_MARCA, cambiar_marca, ico, png, poner_imagen, svg

pytestmark = pytest.mark.django_db

CAMPOS = {
    "modo": str,
    "nombre": str,
    "tagline": (str, type(None)),
    "nombre_entidad": (str, type(None)),
    "color_primario": str,
    "color_acento": str,
    "logo_url": (str, type(None)),
    "isotipo_url": (str, type(None)),
    "favicon_url": (str, type(None)),
    "logo_tipo": (str, type(None)),
    "isotipo_tipo": (str, type(None)),
    "login_titulo": str,
    "login_bullets": list,
    "contacto_correo": (str, type(None)),
    "contacto_sitio": (str, type(None)),
    "con_tecnologia_hub": bool,
    "es_default": bool,
    "version": str,
}


def _data(client, **extra):
    r = client.get(URL_MARCA, **extra)
    assert r.status_code == 200
    return r, r.json()["data"]


def test_fresh_install_answers_the_default_hub_brand_in_the_envelope(client):
    r = client.get(URL_MARCA, HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    cuerpo = r.json()
    assert cuerpo["success"] is True
    assert set(cuerpo) == {"success", "data", "message"}
    data = cuerpo["data"]
    for campo, tipo in CAMPOS.items():
        assert isinstance(data[campo], tipo), campo
    assert data["modo"] == "hub"
    assert data["nombre"] == DEFAULTS["nombre"]
    assert data["nombre_entidad"] is None
    assert data["contacto_correo"] is None and data["contacto_sitio"] is None
    assert data["login_bullets"] == DEFAULTS["login_bullets"]
    assert all(isinstance(b, str) for b in data["login_bullets"])
    assert data["logo_url"] is None and data["isotipo_url"] is None and data["favicon_url"] is None
    assert data["logo_tipo"] is None and data["isotipo_tipo"] is None
    assert re.fullmatch(r"#[0-9A-F]{6}", data["color_primario"])
    assert re.fullmatch(r"#[0-9A-F]{6}", data["color_acento"])
    assert data["con_tecnologia_hub"] is True
    assert data["es_default"] is True


def test_etag_is_the_version_between_quotes_with_revalidating_cache_control(client):
    r, data = _data(client)
    assert re.fullmatch(r"[0-9a-f]{16}", data["version"])
    assert r["ETag"] == f'"{data["version"]}"'
    assert r["Cache-Control"] == "public, max-age=0, must-revalidate"


def test_every_field_set_by_the_organization_is_published(client):
    cambiar_marca(
        modo="marca_blanca",
        nombre="IDGP en línea",
        tagline="Trámites en un solo lugar",
        nombre_entidad="Instituto Distrital de Gestión Pública",
        color_primario="#0b4f6c",
        color_acento="#F2A541",
        login_titulo="Ingreso del personal",
        login_bullets=["Radique solicitudes.", "Consulte su presupuesto."],
        contacto_correo="atencion@idgp.gov.co",
        contacto_sitio="https://www.idgp.gov.co",
    )
    _, data = _data(client)
    assert data["modo"] == "marca_blanca"
    assert data["nombre"] == "IDGP en línea"
    assert data["tagline"] == "Trámites en un solo lugar"
    assert data["nombre_entidad"] == "Instituto Distrital de Gestión Pública"
    assert data["color_primario"] == "#0B4F6C"  # one spelling: upper case
    assert data["color_acento"] == "#F2A541"
    assert data["login_titulo"] == "Ingreso del personal"
    assert data["login_bullets"] == ["Radique solicitudes.", "Consulte su presupuesto."]
    assert data["contacto_correo"] == "atencion@idgp.gov.co"
    assert data["contacto_sitio"] == "https://www.idgp.gov.co"
    assert data["con_tecnologia_hub"] is False
    assert data["es_default"] is False


@pytest.mark.parametrize(
    ("modo", "credito"), [("hub", True), ("comarca", True), ("marca_blanca", False)]
)
def test_powered_by_credit_follows_the_mode(client, modo, credito):
    cambiar_marca(modo=modo)
    assert _data(client)[1]["con_tecnologia_hub"] is credito


def test_image_addresses_are_absolute_carry_the_version_and_their_format(client):
    poner_imagen("logo", svg())
    poner_imagen("isotipo", png())
    poner_imagen("favicon", ico())
    _, data = _data(client)
    v = data["version"]
    assert data["logo_url"] == f"http://testserver/auth/api/v1/auth/marca/archivo/logo?v={v}"
    assert data["isotipo_url"] == f"http://testserver/auth/api/v1/auth/marca/archivo/isotipo?v={v}"
    assert data["favicon_url"] == f"http://testserver/auth/api/v1/auth/marca/archivo/favicon?v={v}"
    assert data["logo_tipo"] == "svg"
    assert data["isotipo_tipo"] == "png"
    assert data["favicon_tipo"] == "ico"


def test_image_addresses_follow_the_host_and_scheme_of_the_request(client):
    poner_imagen("logo", png())
    _, data = _data(client, HTTP_HOST="localhost", secure=True)
    assert data["logo_url"].startswith("https://localhost/auth/api/v1/auth/marca/archivo/logo?v=")


def test_es_default_turns_false_after_any_change_and_back_when_restored(client):
    assert _data(client)[1]["es_default"] is True
    cambiar_marca(color_acento="#123456")
    assert _data(client)[1]["es_default"] is False
    cambiar_marca(color_acento=DEFAULTS["color_acento"])
    assert _data(client)[1]["es_default"] is True


def test_an_uploaded_image_alone_makes_the_brand_customized(client):
    poner_imagen("favicon", png())
    assert _data(client)[1]["es_default"] is False


def test_version_changes_when_a_colour_changes(client):
    antes = _data(client)[1]["version"]
    cambiar_marca(color_primario="#AA0000")
    r, data = _data(client)
    assert data["version"] != antes
    assert r["ETag"] == f'"{data["version"]}"'


def test_version_changes_when_an_image_changes_and_when_it_is_removed(client):
    from apps.marca import services

    v0 = _data(client)[1]["version"]
    poner_imagen("logo", svg("#111111"))
    v1 = _data(client)[1]["version"]
    poner_imagen("logo", svg("#222222"))
    v2 = _data(client)[1]["version"]
    services.quitar_imagen(slot="logo")
    v3 = _data(client)[1]["version"]
    assert len({v0, v1, v2}) == 3
    assert v3 == v0  # same content as before: same fingerprint


def test_saving_the_same_content_keeps_the_version(client):
    cambiar_marca(nombre="Portal")
    poner_imagen("logo", png())
    antes = _data(client)[1]["version"]
    cambiar_marca(nombre="Portal")
    poner_imagen("logo", png())
    assert _data(client)[1]["version"] == antes


def test_version_changes_for_text_and_bullet_changes(client):
    vistas = {_data(client)[1]["version"]}
    cambiar_marca(login_titulo="Otro título")
    vistas.add(_data(client)[1]["version"])
    cambiar_marca(login_bullets=["Una sola frase."])
    vistas.add(_data(client)[1]["version"])
    cambiar_marca(modo="comarca")
    vistas.add(_data(client)[1]["version"])
    assert len(vistas) == 4


@pytest.mark.parametrize(
    "cabecera",
    [
        "{etag}",
        "W/{etag}",
        '"otra", {etag}',
        '"a",W/{etag} , "b"',
        "*",
    ],
)
def test_if_none_match_matching_answers_304_with_empty_body(client, cabecera):
    r, _ = _data(client)
    r304 = client.get(URL_MARCA, HTTP_IF_NONE_MATCH=cabecera.format(etag=r["ETag"]))
    assert r304.status_code == 304
    assert r304.content == b""
    assert r304["ETag"] == r["ETag"]
    assert r304["Cache-Control"] == "public, max-age=0, must-revalidate"
    assert r304["X-RateLimit-Limit"] == "600"


@pytest.mark.parametrize("cabecera", ['"0000000000000000"', 'W/"otra"', '"a", "b"', "basura"])
def test_if_none_match_not_matching_answers_200_with_the_brand(client, cabecera):
    r = client.get(URL_MARCA, HTTP_IF_NONE_MATCH=cabecera)
    assert r.status_code == 200
    assert r.json()["data"]["nombre"] == DEFAULTS["nombre"]


def test_an_old_etag_gets_the_new_brand_after_a_change(client):
    viejo = _data(client)[0]["ETag"]
    cambiar_marca(nombre="Nuevo nombre")
    r = client.get(URL_MARCA, HTTP_IF_NONE_MATCH=viejo)
    assert r.status_code == 200
    assert r.json()["data"]["nombre"] == "Nuevo nombre"
    assert r["ETag"] != viejo


def test_unchanged_brand_costs_zero_queries_for_200_and_304(client, django_assert_num_queries):
    poner_imagen("logo", svg())
    etag = client.get(URL_MARCA)["ETag"]  # warm-up: brand and limits now in the cache
    with django_assert_num_queries(0):
        r = client.get(URL_MARCA)
    assert r.status_code == 200 and r.json()["data"]["logo_tipo"] == "svg"
    with django_assert_num_queries(0):
        r = client.get(URL_MARCA, HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 304


def test_a_change_is_seen_at_once_despite_the_cache(client):
    _data(client)
    cambiar_marca(nombre="Visto de inmediato")
    assert _data(client)[1]["nombre"] == "Visto de inmediato"


def test_no_cors_header_for_a_foreign_origin(client):
    r = client.get(URL_MARCA, HTTP_ORIGIN="https://otro.example")
    assert r.status_code == 200
    assert "Access-Control-Allow-Origin" not in r
    preflight = client.options(
        URL_MARCA,
        HTTP_ORIGIN="https://otro.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )
    assert "Access-Control-Allow-Origin" not in preflight


@pytest.mark.parametrize("metodo", ["post", "put", "patch", "delete"])
def test_other_methods_get_405_metodo_no_permitido(client, metodo):
    r = getattr(client, metodo)(URL_MARCA, data="{}", content_type="application/json")
    assert r.status_code == 405
    cuerpo = r.json()
    assert cuerpo["success"] is False
    assert cuerpo["error"]["code"] == "METODO_NO_PERMITIDO"
    assert r["Allow"] == "GET, HEAD"


def test_head_answers_the_headers_without_a_body(client):
    r = client.head(URL_MARCA)
    assert r.status_code == 200
    assert r.content == b""
    assert r["ETag"].startswith('"')


def test_head_with_the_current_etag_is_304_and_carries_the_get_headers(client):
    get = client.get(URL_MARCA)
    r = client.head(URL_MARCA)
    for cabecera in ("Content-Type", "Content-Length", "ETag", "Cache-Control"):
        assert r[cabecera] == get[cabecera]
    r304 = client.head(URL_MARCA, HTTP_IF_NONE_MATCH=get["ETag"])
    assert (r304.status_code, r304.content, r304["ETag"]) == (304, b"", get["ETag"])
    assert r304["Cache-Control"] == "public, max-age=0, must-revalidate"


@pytest.mark.parametrize("metodo", ["OPTIONS", "TRACE"])
def test_options_and_trace_get_405_with_allow_get_head(client, metodo):
    r = client.generic(metodo, URL_MARCA)
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"
    assert r["Allow"] == "GET, HEAD"


def test_a_query_string_changes_nothing(client):
    esperado = client.get(URL_MARCA).content
    r = client.get(URL_MARCA, {"v": "x", "format": "xml", "nulo": "\x00"})
    assert (r.status_code, r["Content-Type"], r.content) == (200, "application/json", esperado)
