"""Dynamic registration and the OpenID `application_type` that MCP 2026-07-28 clients send."""

from __future__ import annotations

import pytest

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.flujo import registrar

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("tipo", "uri"),
    [("native", "http://127.0.0.1:33418/callback"), ("web", "https://claude.ai/api/mcp/cb")],
)
def test_a_client_that_declares_its_application_type_registers_and_gets_it_back(client, tipo, uri):
    r = registrar(client, redirecciones=[uri], application_type=tipo)
    assert r.status_code == 201
    datos = r.json()
    assert datos["application_type"] == tipo
    assert datos["redirect_uris"] == [uri]
    assert Aplicacion.objects.filter(client_id=datos["client_id"]).exists()


def test_a_client_that_declares_none_is_answered_as_before(client):
    r = registrar(client)
    assert r.status_code == 201
    assert "application_type" not in r.json()


def test_a_null_application_type_is_a_field_not_sent(client):
    r = registrar(client, application_type=None)
    assert r.status_code == 201
    assert "application_type" not in r.json()


@pytest.mark.parametrize("tipo", ["desktop", "", "NATIVE", 1, ["web"]])
def test_another_application_type_is_invalid_client_metadata(client, tipo):
    r = registrar(client, application_type=tipo)
    assert r.status_code == 400
    assert r.json() == {
        "error": "invalid_client_metadata",
        "error_description": "application_type no admitido. Se admiten: native, web.",
    }
    assert not Aplicacion.objects.exists()
