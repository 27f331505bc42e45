"""A personal token's areas, chosen when it is created on the profile (issue 39): every area
ticked at first, at least one required, and the endpoint honouring the choice."""

from __future__ import annotations

import pytest

from apps.mcp import services
from apps.mcp.models import TokenPersonal
from tests.mcp.factories import nuevo_token

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/"


def test_the_creation_form_offers_every_area_ticked(navegante):
    html = navegante.get(URL).content.decode()
    for area in ("solicitudes", "presupuesto", "calidad"):
        assert f'name="areas" value="{area}"' in html
    assert html.count('name="areas"') == html.count('name="areas" value="') == 3
    assert html.count("checked") >= 3


def test_a_token_created_for_one_area_reaches_only_that_area(navegante, persona):
    r = navegante.post(
        URL, {"accion": "crear", "nombre": "Solo calidad", "dias": "30", "areas": ["calidad"]}
    )
    assert r.status_code == 302
    token = TokenPersonal.objects.get()
    assert token.areas == "calidad"


def test_no_area_ticked_is_refused_on_the_form(navegante):
    r = navegante.post(URL, {"accion": "crear", "nombre": "Sin áreas", "dias": "30"})
    assert r.status_code == 200
    assert "Elija al menos un área." in r.content.decode()
    assert not TokenPersonal.objects.exists()


def test_regenerating_keeps_the_areas_and_an_old_token_reaches_every_area(persona):
    viejo, _ = nuevo_token(persona)
    assert viejo.areas == ""  # stored before areas existed: every area
    token, _ = services.crear_token_personal(
        usuario=persona, nombre="Dos", dias=30, areas_elegidas=["presupuesto", "solicitudes"]
    )
    assert token.areas == "solicitudes presupuesto"
    nuevo, _ = services.regenerar_token_personal(usuario=persona, token_id=token.pk)
    assert nuevo.areas == "solicitudes presupuesto"
    with pytest.raises(services.ErrorCredencial):
        services.crear_token_personal(usuario=persona, nombre="Cero", dias=30, areas_elegidas=[])
