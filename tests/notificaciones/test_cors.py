"""Browsers on a configured site's origin may post to the contact endpoint, and only there."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from tests.notificaciones.ayudas import URL, cuerpo
from tests.notificaciones.factories import SitioContactoFactory

pytestmark = pytest.mark.django_db

ORIGEN = "https://www.entidad.gov.co"


@pytest.fixture
def portal_con_origen(db):
    return SitioContactoFactory(codigo="portal", origenes=f"{ORIGEN}\nhttps://entidad.gov.co")


def _preflight(client, ruta: str, origen: str):
    return client.options(
        ruta,
        HTTP_ORIGIN=origen,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type",
    )


def test_the_preflight_from_a_site_origin_is_allowed_with_204(client, portal_con_origen):
    r = _preflight(client, URL, ORIGEN)
    # The interface lists 204 (no body) for a CORS preflight.
    assert r.status_code == 204
    assert r.content == b""
    assert r["Access-Control-Allow-Origin"] == ORIGEN
    assert "POST" in r["Access-Control-Allow-Methods"]
    assert "content-type" in r["Access-Control-Allow-Headers"]


def test_a_post_from_a_site_origin_carries_the_cors_header(client, portal_con_origen):
    r = client.post(URL, json.dumps(cuerpo()), content_type="application/json", HTTP_ORIGIN=ORIGEN)
    assert r.status_code == 201
    assert r["Access-Control-Allow-Origin"] == ORIGEN


@pytest.mark.parametrize(
    "origen", ["https://malicioso.example", "http://www.entidad.gov.co", "null"]
)
def test_another_origin_gets_no_cors_permission(client, portal_con_origen, origen):
    r = _preflight(client, URL, origen)
    assert r.status_code == 204
    assert "Access-Control-Allow-Origin" not in r


def test_an_inactive_site_no_longer_opens_its_origin(client, portal_con_origen):
    portal_con_origen.activo = False
    portal_con_origen.save()
    assert "Access-Control-Allow-Origin" not in _preflight(client, URL, ORIGEN)


def test_a_site_origin_opens_no_other_endpoint(client, portal_con_origen):
    for ruta in ("/auth/api/v1/ping", "/notificaciones/api/v1/ping"):
        r = client.get(ruta, HTTP_ORIGIN=ORIGEN)
        assert r.status_code == 200
        assert "Access-Control-Allow-Origin" not in r


@pytest.mark.parametrize(
    "texto",
    ["https://x.gov.co/contacto", "ftp://x.gov.co", "www.x.gov.co", "https://a:b@x.gov.co"],
)
def test_the_admin_refuses_origins_that_are_not_bare_web_origins(texto):
    sitio = SitioContactoFactory.build(codigo="nuevo", nombre="Nuevo", origenes=texto)
    with pytest.raises(ValidationError) as error:
        sitio.full_clean()
    assert "origenes" in error.value.message_dict


def test_the_admin_accepts_one_origin_per_line():
    sitio = SitioContactoFactory.build(
        codigo="nuevo", nombre="Nuevo", origenes="https://a.gov.co\n\nhttp://localhost:8080/\n"
    )
    sitio.full_clean()
    assert sitio.lista_origenes() == {"https://a.gov.co", "http://localhost:8080"}
