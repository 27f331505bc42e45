"""estado_cdp looks a document up by the hub's own number first (issue 42): the answer is the
one the OR of both numbers gave, the hub's number preferred and visibility kept."""

from __future__ import annotations

import pytest

from tests.mcp_cliente import llamar, validador
from tests.presupuesto import mundos
from tests.presupuesto.factories import cdp_expedido

pytestmark = pytest.mark.django_db


def test_the_hubs_own_number_wins_over_an_equal_external_number(client):
    mundo = mundos.mundo_cdp()
    propio = mundo["cdp"]
    cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00", numero_externo=propio.numero)
    r = llamar(client, "estado_cdp", {"numero": propio.numero}, **mundo["como_duena"])
    assert validador("estado_cdp")(r)["numero_cdp"] == propio.numero


def test_a_hidden_hub_number_falls_back_to_a_visible_external_number(client):
    mundo = mundos.mundo_cdp()
    ajeno = mundo["ajeno"]  # another area's CDP: its hub number is not visible to her
    visible = cdp_expedido(mundo["proyecto"], mundo["oap"], "10.00", numero_externo=ajeno.numero)
    r = llamar(client, "estado_cdp", {"numero": ajeno.numero.lower()}, **mundo["como_duena"])
    assert validador("estado_cdp")(r)["numero_cdp"] == visible.numero
