"""Narrowing and widening a connected application from the profile (issue 39): fewer areas or no
writing at once, on every live token and past the cached accesses; more, up to what the
application asked for and never beyond; confirmed on a hub page with CSRF."""

from __future__ import annotations

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken

from apps.autorizacion import services as servicios_oauth
from apps.autorizacion.models import PedidoAlcances
from tests.factories import UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token_oauth
from tests.mcp_cliente import identificar

pytestmark = pytest.mark.django_db

TODO = (
    "asistente:calidad asistente:escribir asistente:leer asistente:presupuesto "
    "asistente:solicitudes"
)


def _url(aplicacion) -> str:
    return f"/cuentas/perfil/aplicaciones/{aplicacion.pk}/acceso/"


def test_the_profile_links_each_connection_to_its_access_page(navegante, persona):
    claude = nueva_aplicacion("Claude")
    nuevo_token_oauth(persona, aplicacion=claude, alcances="asistente:leer asistente:calidad")
    html = navegante.get("/cuentas/perfil/").content.decode()
    assert f'href="{_url(claude)}"' in html and "Áreas: Documentos de calidad" in html
    pagina = navegante.get(_url(claude)).content.decode()
    assert 'name="areas" value="calidad" checked' in pagina


def test_narrowing_takes_effect_at_once_on_every_token_even_when_cached(navegante, persona):
    claude = nueva_aplicacion("Claude")
    otra = nueva_aplicacion("Otra")
    _, s1 = nuevo_token_oauth(persona, aplicacion=claude, alcances=TODO)
    _, s2 = nuevo_token_oauth(persona, aplicacion=claude, alcances=TODO)
    _, s3 = nuevo_token_oauth(persona, aplicacion=otra, alcances=TODO)
    assert identificar(s1).areas == {"solicitudes", "presupuesto", "calidad"}  # now cached
    r = navegante.post(_url(claude), {"areas": ["calidad"]})
    assert r.status_code == 302 and r["Location"] == "/cuentas/perfil/#aplicaciones"
    for secreto in (s1, s2):
        identidad = identificar(secreto)
        assert identidad.areas == {"calidad"} and not identidad.puede_escribir
    assert identificar(s3).areas == {"solicitudes", "presupuesto", "calidad"}
    assert "El acceso de «Claude» cambió" in navegante.get("/cuentas/perfil/").content.decode()


def test_a_connection_from_before_areas_can_be_narrowed_and_widened_back(navegante, persona):
    claude = nueva_aplicacion("Claude")
    _, secreto = nuevo_token_oauth(persona, aplicacion=claude)  # leer + escribir, no area
    assert identificar(secreto).areas == {"solicitudes", "presupuesto", "calidad"}
    navegante.post(_url(claude), {"areas": ["presupuesto"]})
    assert identificar(secreto).areas == {"presupuesto"}
    assert not identificar(secreto).puede_escribir
    # What it had before is the bound it may be widened back to.
    navegante.post(_url(claude), {"areas": ["presupuesto", "solicitudes"], "escribir": "1"})
    identidad = identificar(secreto)
    assert identidad.areas == {"presupuesto", "solicitudes"} and identidad.puede_escribir


def test_widening_goes_up_to_what_the_application_asked_for_and_never_beyond(navegante, persona):
    claude = nueva_aplicacion("Claude")
    _, secreto = nuevo_token_oauth(
        persona, aplicacion=claude, alcances="asistente:leer asistente:calidad"
    )
    PedidoAlcances.objects.create(
        usuario=persona,
        aplicacion=claude,
        alcances="asistente:calidad asistente:leer asistente:presupuesto",
    )
    pagina = navegante.get(_url(claude)).content.decode()
    assert 'value="presupuesto"' in pagina and 'value="solicitudes"' not in pagina
    assert 'name="escribir"' not in pagina  # it never asked to write
    navegante.post(
        _url(claude), {"areas": ["calidad", "presupuesto", "solicitudes"], "escribir": "1"}
    )
    identidad = identificar(secreto)
    assert identidad.areas == {"calidad", "presupuesto"} and not identidad.puede_escribir
    with pytest.raises(servicios_oauth.ErrorAjuste):
        servicios_oauth.ajustar_conexion(
            usuario_id=persona.pk,
            aplicacion_id=claude.pk,
            areas_elegidas={"solicitudes"},
            escribir=False,
        )
    assert AccessToken.objects.get().scope == (
        "asistente:calidad asistente:leer asistente:presupuesto"
    )


def test_no_area_ticked_shows_the_page_again_and_changes_nothing(navegante, persona):
    claude = nueva_aplicacion("Claude")
    _, secreto = nuevo_token_oauth(persona, aplicacion=claude, alcances=TODO)
    r = navegante.post(_url(claude), {"escribir": "1"})
    assert r.status_code == 400
    assert "Elija al menos un área." in r.content.decode()
    assert AccessToken.objects.get().scope == TODO
    assert identificar(secreto).puede_escribir


def test_nobody_changes_another_persons_connection_and_the_csrf_token_is_required(client, persona):
    claude = nueva_aplicacion("Claude")
    nuevo_token_oauth(persona, aplicacion=claude, alcances=TODO)
    client.force_login(UserFactory(permisos=["mcp.asistente.usar"]))
    assert client.get(_url(claude)).status_code == 404
    assert client.post(_url(claude), {"areas": ["calidad"]}).status_code == 404
    navegador = Client(enforce_csrf_checks=True)
    navegador.force_login(persona)
    assert navegador.post(_url(claude), {"areas": ["calidad"]}).status_code == 403
    assert AccessToken.objects.get().scope == TODO
