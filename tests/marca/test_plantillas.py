"""The branded base layout, the context processor and the template tag."""

from __future__ import annotations

import copy

import pytest
from django.conf import settings
from django.template import engines
from django.test import RequestFactory, override_settings

from apps.marca.context_processors import texto_sobre
from tests.marca.factories import cambiar_marca, png, poner_imagen

pytestmark = pytest.mark.django_db

HIJA = '{% extends "base.html" %}{% block title %}Perfil{% endblock %}'
HIJA += "{% block contenido %}<p>contenido propio</p>{% endblock %}"


def _con_procesador() -> list[dict]:
    plantillas = copy.deepcopy(settings.TEMPLATES)
    plantillas[0]["OPTIONS"]["context_processors"].append("apps.marca.context_processors.marca")
    return plantillas


def _render(texto: str) -> str:
    request = RequestFactory().get("/cuentas/perfil/")
    return engines["django"].from_string(texto).render({}, request)


def test_a_page_extending_base_gets_the_brand_colours_name_and_blocks():
    cambiar_marca(nombre="IDGP en línea", color_primario="#0B4F6C", color_acento="#F2A541")
    html = _render(HIJA)
    assert "<title>Perfil</title>" in html
    assert "<p>contenido propio</p>" in html
    assert "--color-primario: #0B4F6C;" in html
    assert "--color-acento: #F2A541;" in html
    assert "IDGP en línea" in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_base_shows_the_logo_and_the_favicon_through_the_endpoint():
    poner_imagen("logo", png())
    poner_imagen("favicon", png())
    html = _render(HIJA)
    assert '<img src="http://testserver/auth/api/v1/auth/marca/archivo/logo?v=' in html
    assert (
        '<link rel="icon" href="http://testserver/auth/api/v1/auth/marca/archivo/favicon?v=' in html
    )
    assert 'type="image/png"' in html


@pytest.mark.parametrize(
    ("modo", "visible"), [("hub", True), ("comarca", True), ("marca_blanca", False)]
)
def test_base_shows_the_powered_by_credit_only_when_the_mode_asks(modo, visible):
    cambiar_marca(modo=modo)
    assert ("Con tecnología Hub" in _render(HIJA)) is visible


def test_base_shows_the_published_contact():
    cambiar_marca(contacto_correo="atencion@idgp.gov.co", nombre_entidad="Instituto X")
    html = _render(HIJA)
    assert 'href="mailto:atencion@idgp.gov.co"' in html
    assert "Instituto X" in html


def test_without_the_context_processor_a_plain_template_can_load_the_tag():
    cambiar_marca(nombre="Con etiqueta")
    html = _render("{% load marca %}{% marca_actual as m %}{{ m.nombre }}|{{ m.version }}")
    nombre, version = html.split("|")
    assert nombre == "Con etiqueta" and len(version) == 16


def test_the_context_processor_gives_every_template_the_brand():
    cambiar_marca(nombre="Desde el procesador", modo="marca_blanca")
    with override_settings(TEMPLATES=_con_procesador()):
        html = _render("{{ marca.nombre }}|{{ marca.con_tecnologia_hub }}|{{ marca.logo_url }}")
        assert html == "Desde el procesador|False|None"
        assert "Desde el procesador" in _render(HIJA)


def test_brand_text_is_escaped_in_pages():
    cambiar_marca(nombre="<script>alert(1)</script>")
    html = _render(HIJA)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.parametrize(
    ("fondo", "texto"),
    [
        ("#0B4F6C", "#FFFFFF"),
        ("#000000", "#FFFFFF"),
        ("#F2A541", "#1A1A1A"),
        ("#FFFFFF", "#1A1A1A"),
    ],
)
def test_text_on_brand_colours_is_the_more_readable_of_white_or_dark(fondo, texto):
    assert texto_sobre(fondo) == texto
