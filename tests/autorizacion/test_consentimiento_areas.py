"""The areas chosen at consent (issue 39): all ticked at first, at least one required, granted
as explicit scopes (also when the client asked for none), offered in the metadata, and kept
when an approved client comes back without asking the person again."""

from __future__ import annotations

import pytest
from oauth2_provider.models import AccessToken, Grant

from apps.autorizacion.models import PedidoAlcances
from tests.autorizacion.flujo import Pedido, aprobar, canjear, conectar, consulta
from tests.mcp_cliente import identificar

pytestmark = pytest.mark.django_db

TODAS = ["asistente:calidad", "asistente:presupuesto", "asistente:solicitudes"]


def test_the_page_offers_every_area_ticked_and_the_metadata_names_the_area_scopes(sesion, app):
    html = sesion.get(Pedido(client_id=app.client_id).url()).content.decode()
    for area in ("solicitudes", "presupuesto", "calidad"):
        assert f'name="areas" value="{area}" checked' in html
    assert "En estas áreas:" in html
    ofrecidos = sesion.get("/.well-known/oauth-authorization-server").json()["scopes_supported"]
    assert set(TODAS) <= set(ofrecidos)


def test_no_area_ticked_shows_the_page_again_with_the_error_and_grants_nothing(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    r = aprobar(sesion, pedido, areas=[])
    assert r.status_code == 400
    html = r.content.decode()
    assert "Elija al menos un área a la que la aplicación pueda acceder." in html
    assert 'name="allow"' in html and 'name="areas" value="calidad" checked' not in html
    # The form still carries the request: the person ticks one and authorizes.
    assert f'value="{app.client_id}"' in html
    assert not Grant.objects.exists() and not AccessToken.objects.exists()
    assert not PedidoAlcances.objects.exists()


def test_an_unknown_area_counts_as_none(sesion, app):
    r = aprobar(sesion, Pedido(client_id=app.client_id), areas=["finanzas"])
    assert r.status_code == 400 and not Grant.objects.exists()


def test_the_areas_ticked_are_the_scopes_granted_and_reach_the_endpoint(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    r = aprobar(sesion, pedido, areas=["calidad"], escribir=False)
    tokens = canjear(sesion, pedido, consulta(r["Location"])["code"]).json()
    assert tokens["scope"] == "asistente:calidad asistente:leer"
    assert identificar(tokens["access_token"]).areas == {"calidad"}
    # What the client asked for is kept: the bound of a later widening on the profile.
    pedido_guardado = PedidoAlcances.objects.get(aplicacion=app)
    assert set(pedido_guardado.alcances.split()) == {
        "asistente:leer",
        "asistente:escribir",
        *TODAS,
    }


def test_a_client_that_asks_for_some_areas_is_offered_only_those(sesion, app):
    pedido = Pedido(client_id=app.client_id, scope="asistente:leer asistente:presupuesto")
    html = sesion.get(pedido.url()).content.decode()
    assert 'value="presupuesto" checked' in html and 'value="calidad"' not in html
    r = aprobar(sesion, pedido, areas=["presupuesto", "calidad"])  # calidad was not offered
    tokens = canjear(sesion, pedido, consulta(r["Location"])["code"]).json()
    assert tokens["scope"] == "asistente:leer asistente:presupuesto"


def test_an_approved_client_coming_back_without_areas_keeps_the_areas_chosen(sesion, app):
    primero = Pedido(client_id=app.client_id)
    r = aprobar(sesion, primero, areas=["calidad", "solicitudes"])
    canjear(sesion, primero, consulta(r["Location"])["code"])
    otra_vez = Pedido(client_id=app.client_id)  # asks for leer + escribir, no area
    r = sesion.get(otra_vez.url())
    assert r.status_code == 302  # no page: already approved
    tokens = canjear(sesion, otra_vez, consulta(r["Location"])["code"]).json()
    assert tokens["scope"] == (
        "asistente:calidad asistente:escribir asistente:leer asistente:solicitudes"
    )


def test_a_connection_from_before_areas_counts_as_approved_for_any_area(sesion, app):
    conectar(sesion, app.client_id)
    AccessToken.objects.update(scope="asistente:escribir asistente:leer")  # as issued before
    otra_vez = Pedido(client_id=app.client_id, scope="asistente:leer asistente:calidad")
    r = sesion.get(otra_vez.url())
    assert r.status_code == 302
    nuevos = canjear(sesion, otra_vez, consulta(r["Location"])["code"]).json()
    assert nuevos["scope"] == "asistente:calidad asistente:leer"
