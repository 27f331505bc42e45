"""The demo brand: a customized comarca brand with real images; loading it twice changes nothing."""

from __future__ import annotations

import io

import pytest
from defusedxml import ElementTree as DefusedET
from PIL import Image

from apps.marca import demo
from hub.operacion.demo import ContextoDemo
from tests.marca.factories import URL_MARCA, url_archivo

pytestmark = pytest.mark.django_db


def test_demo_brand_is_customized_with_real_images(client):
    demo.cargar(ContextoDemo())
    data = client.get(URL_MARCA).json()["data"]
    assert data["modo"] == "comarca"
    assert data["nombre_entidad"] == "Instituto Distrital de Gestión Pública"
    assert data["con_tecnologia_hub"] is True
    assert data["es_default"] is False
    assert len(data["login_bullets"]) == 4
    assert data["contacto_correo"] and data["contacto_sitio"].startswith("https://")
    assert (data["logo_tipo"], data["isotipo_tipo"], data["favicon_tipo"]) == ("svg", "svg", "png")

    for slot in ("logo", "isotipo"):
        r = client.get(url_archivo(slot))
        assert r["Content-Type"] == "image/svg+xml"
        raiz = DefusedET.fromstring(r.content)
        assert raiz.tag == "{http://www.w3.org/2000/svg}svg"
        assert raiz.get("viewBox")
    favicon = client.get(url_archivo("favicon"))
    assert favicon["Content-Type"] == "image/png"
    with Image.open(io.BytesIO(favicon.content)) as img:
        assert img.format == "PNG" and img.size == (64, 64)


def test_loading_the_demo_twice_keeps_the_same_version(client):
    ctx = ContextoDemo()
    demo.cargar(ctx)
    primera = client.get(URL_MARCA).json()["data"]["version"]
    demo.cargar(ContextoDemo())
    assert client.get(URL_MARCA).json()["data"]["version"] == primera
    assert ctx.objetos["marca_version"] == primera
    assert any("/auth/api/v1/auth/marca" in linea for linea in ctx.resumen)
