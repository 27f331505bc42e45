"""API paths use no cookie a CSRF token could protect: every view under /api/ is csrf_exempt, as
DRF's are, so a real client never meets Django's HTML CSRF page there; pages keep the check."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from hub.http import respuestas
from tests.rutas import rutas

# "api" as a segment of the route's text (a route, or the catch-all's regular expression).
SEGMENTO_API = re.compile(r"(^|[/?^])api([/(]|$)")


def test_every_view_under_an_api_path_is_csrf_exempt():
    api = {r: v for r, v in rutas() if SEGMENTO_API.search(r)}
    vistas = {getattr(v, "__name__", "") for v in api.values()}
    assert {"vista_mcp", "no_encontrado", "documentacion", "metadatos_servidor"} <= vistas
    assert [r for r, v in api.items() if not getattr(v, "csrf_exempt", False)] == []


def test_the_check_sees_the_api_routes_as_the_envelope_does():
    for ruta in ("/mcp/api/mcp", "/.well-known/oauth-protected-resource/mcp/api/mcp", "/api/x"):
        assert respuestas.es_ruta_api(ruta)
        assert SEGMENTO_API.search(ruta.lstrip("/"))
    assert not SEGMENTO_API.search("admin/mcp/claveapi/")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "ruta",
    [
        "/mcp/api/mcp",
        "/.well-known/oauth-protected-resource/mcp/api/mcp",
        "/.well-known/oauth-authorization-server/mcp/api/mcp",
        "/api/docs/",
        "/auth/api/v1/no-existe",
    ],
)
def test_a_post_without_csrf_token_to_an_api_path_gets_the_envelope_or_its_own_answer(ruta):
    r = Client(enforce_csrf_checks=True).post(ruta, "{}", content_type="application/json")
    assert r.status_code != 403
    assert b"CSRF" not in r.content
