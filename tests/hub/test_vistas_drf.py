"""The client's design card: DRF views serve every v1 envelope endpoint; the MCP endpoint is the
one plain Django view; content negotiation changes no answer of the interface."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from hub.http.respuestas import RenderizadorJSON
from hub.openapi.generador import en_el_contrato, es_vista_drf, nombre_de
from tests.marca.factories import URL_MARCA
from tests.rutas import rutas

pytestmark = pytest.mark.django_db

PINGS = ("auth", "presupuesto", "solicitudes", "calidad", "archivos", "mcp", "notificaciones")


def _interfaz() -> list[tuple[str, object]]:
    return [
        (ruta, callback)
        for ruta, callback in rutas()
        if en_el_contrato("/" + ruta.replace("^", ""))
    ]


def test_every_route_of_the_v1_interface_is_a_drf_view_but_the_assistant():
    rutas = _interfaz()
    assert len(rutas) == 2 + 2 + len(PINGS) + 1 + 1  # brand, verification, pings, contact, MCP
    planas = {ruta: nombre_de(callback) for ruta, callback in rutas if not es_vista_drf(callback)}
    assert planas == {"mcp/api/mcp": "apps.mcp.protocolo.vista_mcp"}


def test_public_views_do_no_authentication_or_permission_work_and_render_only_json():
    for _ruta, callback in _interfaz():
        if not es_vista_drf(callback):
            continue
        vista = callback.cls
        assert list(vista.authentication_classes) == []
        assert list(vista.permission_classes) == []
        assert list(vista.renderer_classes) == [RenderizadorJSON]  # no browsable API


def test_a_signed_in_browser_on_a_public_endpoint_does_not_load_its_session(
    client, django_assert_num_queries
):
    persona = get_user_model().objects.create_user(username="ana", password="clave-larga-1")
    client.force_login(persona)
    client.get(URL_MARCA)  # warms the brand cache
    with django_assert_num_queries(0):  # no session row, no user row
        assert client.get(URL_MARCA).status_code == 200
        assert client.get("/auth/api/v1/ping").status_code == 200


GET_ESPERADOS = {
    URL_MARCA: 200,
    "/auth/api/v1/ping": 200,
    "/presupuesto/api/v1/firmas/verificar/x": 404,
}


def _sin_hora(cuerpo: dict) -> dict:
    """The answer without the ping's server time, which changes between two requests."""
    datos = cuerpo.get("data")
    if isinstance(datos, dict):
        return {**cuerpo, "data": {k: v for k, v in datos.items() if k != "ts"}}
    return cuerpo


@pytest.mark.parametrize("accept", ["text/html", "image/png", "application/xml", "*/*"])
def test_what_the_client_accepts_does_not_change_the_answer_of_a_get_endpoint(client, accept):
    for ruta, estado in GET_ESPERADOS.items():
        sin_accept = client.get(ruta)
        r = client.get(ruta, HTTP_ACCEPT=accept)
        assert (r.status_code, sin_accept.status_code) == (estado, estado), ruta
        assert r["Content-Type"] == "application/json"
        assert _sin_hora(json.loads(r.content)) == _sin_hora(json.loads(sin_accept.content))


def test_the_files_ping_stays_a_flat_object_and_the_budget_ping_keeps_data_ok(client):
    plano = client.get("/archivos/api/v1/ping").json()
    assert set(plano) == {"ok", "servicio", "ts"} and plano["ok"] is True
    presupuesto = client.get("/presupuesto/api/v1/ping").json()
    assert presupuesto["data"]["ok"] is True and presupuesto["data"]["servicio"] == "presupuesto"


def test_no_browsable_api_even_when_asked_for(client):
    r = client.get(URL_MARCA + "?format=api", HTTP_ACCEPT="text/html")
    assert r["Content-Type"] == "application/json"


def test_answers_carry_no_allow_or_vary_accept_outside_405(client):
    r = client.get("/auth/api/v1/ping")
    assert "Allow" not in r
    assert "Accept" not in r.get("Vary", "")
    r = client.options(URL_MARCA)
    assert r.status_code == 405
    assert r["Allow"] == "GET, HEAD"
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"


def test_a_refused_method_costs_no_count_of_the_endpoint_limit(client):
    r = client.post(URL_MARCA)
    assert r.status_code == 405
    assert "X-RateLimit-Limit" not in r
    assert client.get(URL_MARCA)["X-RateLimit-Remaining"] == "599"


@pytest.mark.parametrize(
    "metodo",
    [
        "django.contrib.sessions.middleware.SessionMiddleware.process_request",
        "django.contrib.auth.middleware.AuthenticationMiddleware.process_request",
        "django.contrib.messages.middleware.MessageMiddleware.process_request",
    ],
)
def test_api_paths_do_no_session_user_or_message_work(client, monkeypatch, metodo):
    ruta, _, nombre = metodo.rpartition(".")
    modulo, _, clase = ruta.rpartition(".")
    objetivo = getattr(__import__(modulo, fromlist=[clase]), clase)

    def prohibido(*args, **kwargs):
        raise AssertionError(f"{metodo} ran on an API path")

    monkeypatch.setattr(objetivo, nombre, prohibido)
    assert client.get("/auth/api/v1/ping").status_code == 200
    assert client.get(URL_MARCA).status_code == 200
    r = client.post("/mcp/api/mcp", data="{}", content_type="application/json")
    assert r.status_code == 401
    with pytest.raises(AssertionError, match="ran on an API path"):
        client.get("/cuentas/login/")  # pages still go through them


def test_api_paths_check_no_csrf_token_and_pages_do(monkeypatch):
    from django.middleware.csrf import CsrfViewMiddleware
    from django.test import Client

    comprobados = []
    original = CsrfViewMiddleware._check_token

    def contando(self, request):
        comprobados.append(request.path)
        return original(self, request)

    monkeypatch.setattr(CsrfViewMiddleware, "_check_token", contando)
    navegador = Client(enforce_csrf_checks=True)
    r = navegador.post("/mcp/api/mcp", data="{}", content_type="application/json")
    assert r.status_code == 401 and r.json()["error"]["code"] == "NO_AUTENTICADO"
    assert comprobados == []
    assert navegador.post("/cuentas/login/", {"username": "x"}).status_code == 403
    assert comprobados == ["/cuentas/login/"]
