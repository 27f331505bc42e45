"""Annulling one signature from its admin page: a button, a confirmation page that asks for the
reason (required), then the service; only people with the change permission."""

from __future__ import annotations

import pytest

from apps.firmas.models import Firma
from tests.factories import UserFactory, dar_permisos
from tests.firmas.factories import firma_anulada, firmar

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_the_signature_page_has_an_annul_button_and_a_confirmation_asking_the_reason(
    administra, area_firmable
):
    firma = firmar(area_firmable)
    html = administra.get(f"/admin/firmas/firma/{firma.pk}/change/").content.decode()
    assert f'href="/admin/firmas/firma/{firma.pk}/anular/" class="accion-objeto"' in html
    confirmacion = administra.get(f"/admin/firmas/firma/{firma.pk}/anular/").content.decode()
    assert "¿Anular esta firma?" in confirmacion
    assert 'name="motivo"' in confirmacion and 'name="publicar"' in confirmacion
    assert 'value="Sí, anular la firma"' in confirmacion


def test_without_a_reason_nothing_is_annulled(administra, area_firmable):
    firma = firmar(area_firmable)
    r = administra.post(f"/admin/firmas/firma/{firma.pk}/anular/", {"motivo": "  "})
    assert r.status_code == 200
    assert "Este campo es requerido." in r.content.decode()
    assert Firma.objects.get(pk=firma.pk).anulada is False


def test_confirming_with_a_reason_annuls_that_signature_only(administra, area_firmable):
    firma = firmar(area_firmable)
    otra = firmar(area_firmable, firmante="Otra persona")
    r = administra.post(
        f"/admin/firmas/firma/{firma.pk}/anular/", {"motivo": "Se firmó el documento equivocado."}
    )
    assert r.status_code == 302 and r["Location"] == f"/admin/firmas/firma/{firma.pk}/change/"
    firma.refresh_from_db()
    assert firma.anulada and firma.motivo_anulacion == "Se firmó el documento equivocado."
    assert firma.motivo_publico is False
    assert Firma.objects.get(pk=otra.pk).anulada is False
    html = administra.get(r["Location"]).content.decode()
    assert "firma anulada." in html and "/anular/" not in html


def test_a_reason_the_service_refuses_is_shown_on_the_confirmation(administra, area_firmable):
    firma = firmar(area_firmable)
    r = administra.post(
        f"/admin/firmas/firma/{firma.pk}/anular/",
        {"motivo": "Llamar a juan@correo.com al 3001234567", "publicar": "on"},
    )
    assert r.status_code == 200
    assert 'class="errornote"' in r.content.decode()
    assert Firma.objects.get(pk=firma.pk).anulada is False


def test_an_annulled_signature_has_no_button(administra, area_firmable):
    firma = firma_anulada(area_firmable)
    html = administra.get(f"/admin/firmas/firma/{firma.pk}/change/").content.decode()
    assert "/anular/" not in html


def test_staff_who_may_only_view_signatures_cannot_annul(client, area_firmable):
    lector = UserFactory(is_staff=True)
    dar_permisos(lector, "firmas.view_firma")
    client.force_login(lector)
    firma = firmar(area_firmable)
    assert "/anular/" not in client.get(f"/admin/firmas/firma/{firma.pk}/change/").content.decode()
    r = client.post(f"/admin/firmas/firma/{firma.pk}/anular/", {"motivo": "Un motivo."})
    assert r.status_code == 403
    assert Firma.objects.get(pk=firma.pk).anulada is False


def test_the_signature_page_reads_its_signature_once(administra, area_firmable):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    firma = firmar(area_firmable)
    administra.get(f"/admin/firmas/firma/{firma.pk}/change/")  # sessions and content types warm
    with CaptureQueriesContext(connection) as consultas:
        html = administra.get(f"/admin/firmas/firma/{firma.pk}/change/").content.decode()
    # The buttons are drawn from the object Django read for the page, not from a second read.
    assert f'href="/admin/firmas/firma/{firma.pk}/anular/" class="accion-objeto"' in html
    tabla = Firma._meta.db_table
    lecturas = [
        q["sql"]
        for q in consultas
        if q["sql"].startswith("SELECT") and f'FROM "{tabla}"' in q["sql"]
    ]
    assert len(lecturas) == 1, lecturas
