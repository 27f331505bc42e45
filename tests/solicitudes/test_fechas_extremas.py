"""The edge dates of the calendar are dates like any other: /solicitudes/ and buscar_solicitudes
serve them (the range clamped to what the calendar holds), and only unparseable input is refused
(`hasta=9999-12-31` was an OverflowError: a 500 on the page, ERROR_INTERNO from the tool)."""

from __future__ import annotations

import pytest

from tests.mcp_cliente import error_herramienta, llamar, validador
from tests.solicitudes.factories import dos_tipos_con_radicados, fechar

pytestmark = pytest.mark.django_db

_valida = validador("buscar_solicitudes")


@pytest.fixture
def escenario():
    e = dos_tipos_con_radicados("FX", resumen_banco="Certificado banco")
    fechar(e["banco"], "2026-03-01")
    return e


@pytest.mark.parametrize(
    ("desde", "hasta", "total"),
    [
        ("0001-01-01", "9999-12-31", 3),
        ("2026-03-02", "9999-12-31", 2),
        ("0001-01-01", "2026-03-01", 1),
        ("9999-12-31", "9999-12-31", 0),
        ("0001-01-01", "0001-01-01", 0),
    ],
)
def test_the_list_serves_the_calendars_edge_dates(client, escenario, desde, hasta, total):
    client.force_login(escenario["dueno"])
    r = client.get("/solicitudes/", {"desde": desde, "hasta": hasta})
    assert r.status_code == 200
    # The owner's three filed requests (the draft, never filed, is in no range of dates).
    assert r.context["pagina"].total == total


@pytest.mark.parametrize(
    ("desde", "hasta", "total"),
    [
        ("0001-01-01", "9999-12-31", 3),
        ("2026-03-02", "9999-12-31", 2),
        ("9999-12-31", None, 0),
    ],
)
def test_buscar_solicitudes_serves_the_calendars_edge_dates(
    client, como, escenario, desde, hasta, total
):
    argumentos = {"desde": desde, **({"hasta": hasta} if hasta else {})}
    datos = _valida(llamar(client, "buscar_solicitudes", argumentos, **como(escenario["dueno"])))
    assert datos["total"] == total


def test_a_date_past_the_calendar_is_still_datos_invalidos(client, como, escenario):
    r = llamar(client, "buscar_solicitudes", {"hasta": "10000-01-01"}, **como(escenario["dueno"]))
    assert set(error_herramienta(r, "DATOS_INVALIDOS")["campos"]) == {"hasta"}


def test_a_date_past_the_calendar_is_a_form_error_on_the_list(client, escenario):
    client.force_login(escenario["dueno"])
    r = client.get("/solicitudes/", {"hasta": "10000-01-01"})
    assert r.status_code == 400
    assert [c.nombre for c in r.context["campos"] if c.errores] == ["hasta"]
