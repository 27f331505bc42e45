"""Bugs schemathesis found in the views, pinned so they stay fixed."""

from __future__ import annotations

import uuid

import pytest

pytestmark = pytest.mark.django_db

DESCONOCIDO = "/presupuesto/api/v1/firmas/verificar/{}"


@pytest.mark.parametrize(
    "ruta",
    ["/presupuesto/api/v1/firmas/verificar/", "/presupuesto/api/v1/paa/firmas/verificar/"],
)
@pytest.mark.parametrize("token", ["%0A", "a%0Ab", "%16_%0A%C3%B7", "%0D%0A"])
def test_a_token_with_a_line_break_gets_the_verification_404_not_the_generic_one(api, ruta, token):
    r = api.get(ruta + token)
    assert r.status_code == 404
    assert r["Cache-Control"] == "no-store"
    assert r.json()["error"]["code"] == "FIRMA_NO_ENCONTRADA"
    assert r.content == api.get(DESCONOCIDO.format(uuid.uuid4())).content


def test_the_human_verification_page_also_takes_a_line_break(api):
    r = api.get("/presupuesto/verificar/a%0Ab")
    assert r.status_code == 404
    # The page's own "not found" answer (no-store), not Django's generic 404 page.
    assert r["Cache-Control"] == "no-store"
    assert r.context["estado"] == "no_encontrada"
