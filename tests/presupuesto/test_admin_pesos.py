"""Amounts in the budget admin as the site's pages write them: "$ 10.400.000,00"."""

from __future__ import annotations

import re

import pytest

from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido

pytestmark = pytest.mark.django_db

CRUDO = re.compile(r"\b\d{5,},\d\d\b")  # "10400000,00": Django's own writing of a Decimal


def test_the_rp_and_cdp_lists_write_amounts_in_pesos(admin_client):
    proyecto, area = celda("480000000.00", tope="900000000.00")
    cdp = cdp_expedido(proyecto, area, "480000000.00")
    rp_expedido(cdp, "10400000.00")
    for ruta in ("/admin/presupuesto/rp/", "/admin/presupuesto/cdp/"):
        html = admin_client.get(ruta).content.decode()
        assert CRUDO.findall(html) == [], ruta
    rps = admin_client.get("/admin/presupuesto/rp/").content.decode()
    assert '<span class="dinero">$ 10.400.000,00</span>' in rps
    cdps = admin_client.get("/admin/presupuesto/cdp/").content.decode()
    assert '<span class="dinero">$ 480.000.000,00</span>' in cdps
    assert '<span class="dinero">$ 469.600.000,00</span>' in cdps  # the balance


def test_change_pages_inlines_and_the_plan_write_pesos_too(admin_client):
    proyecto, area = celda("480000000.00", tope="900000000.00")
    cdp = cdp_expedido(proyecto, area, "480000000.00")
    rp = rp_expedido(cdp, "10400000.00")
    for ruta in (
        f"/admin/presupuesto/cdp/{cdp.pk}/change/",
        f"/admin/presupuesto/rp/{rp.pk}/change/",
        "/admin/presupuesto/vigencia/",
        f"/admin/presupuesto/proyecto/{proyecto.pk}/change/",
        "/admin/presupuesto/proyecto/",
        "/admin/presupuesto/movimientocdp/",
    ):
        r = admin_client.get(ruta)
        assert r.status_code == 200, ruta
        assert CRUDO.findall(r.content.decode()) == [], ruta
    pagina = admin_client.get(f"/admin/presupuesto/cdp/{cdp.pk}/change/").content.decode()
    assert "$ 469.600.000,00" in pagina and "$ 10.400.000,00" in pagina
