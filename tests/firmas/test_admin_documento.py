"""The signature admin names the signed document by its number, linked to its page, and every
record with a page on the site has "Ver en el sitio" on its admin page."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.firmas.factories import firmar
from tests.presupuesto.factories import cdp_expedido, celda

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_a_cdp_signature_shows_the_cdp_number_linked_to_its_page(administra):
    proyecto, area = celda("5000000.00")
    cdp = cdp_expedido(proyecto, area, "1000000.00")
    firma = firmar(cdp)
    enlace = f'<a href="{cdp.enlace}" class="nowrap">{cdp.numero}</a>'
    lista = administra.get("/admin/firmas/firma/").content.decode()
    assert enlace in lista
    pagina = administra.get(f"/admin/firmas/firma/{firma.pk}/change/").content.decode()
    assert enlace in pagina
    assert "Id del documento" not in pagina and "id del documento" not in pagina


def test_change_pages_of_records_with_a_site_page_link_to_it(administra):
    proyecto, area = celda("5000000.00")
    cdp = cdp_expedido(proyecto, area, "1000000.00")
    pagina = administra.get(f"/admin/presupuesto/cdp/{cdp.pk}/change/").content.decode()
    assert f'href="{cdp.enlace}" class="viewsitelink"' in pagina
    assert "Ver en el sitio" in pagina
    # An area has no page of its own on the site: no such link.
    area_pagina = administra.get(f"/admin/cuentas/area/{area.pk}/change/").content.decode()
    assert "viewsitelink" not in area_pagina
