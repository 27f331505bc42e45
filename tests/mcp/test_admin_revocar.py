"""Revoking one API key or personal token from its admin page: a button, a confirmation page,
then the service; only people with the change permission, and only while it is in force."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry

from apps.mcp.models import ClaveApi, TokenPersonal
from tests.factories import UserFactory, dar_permisos
from tests.mcp.factories import nueva_clave, nuevo_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_r", is_staff=True, is_superuser=True))
    return client


def _pagina(modelo: str, pk: int) -> str:
    return f"/admin/mcp/{modelo}/{pk}/change/"


def test_a_key_page_shows_the_revoke_button_leading_to_a_confirmation(administra):
    clave, _ = nueva_clave(nombre="Chat institucional")
    html = administra.get(_pagina("claveapi", clave.pk)).content.decode()
    assert f'href="/admin/mcp/claveapi/{clave.pk}/revocar/" class="accion-objeto"' in html
    r = administra.get(f"/admin/mcp/claveapi/{clave.pk}/revocar/")
    assert r.status_code == 200
    confirmacion = r.content.decode()
    assert "¿Revocar esta clave de API?" in confirmacion
    assert 'value="Sí, revocar la clave"' in confirmacion
    assert "csrfmiddlewaretoken" in confirmacion
    assert f'href="{_pagina("claveapi", clave.pk)}" class="button cancel-link"' in confirmacion
    clave.refresh_from_db()
    assert clave.revocado_en is None  # opening the confirmation changes nothing


def test_confirming_revokes_exactly_that_key_and_records_it(administra):
    clave, _ = nueva_clave(nombre="Chat institucional")
    otra, _ = nueva_clave(nombre="Portal")
    r = administra.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/")
    assert r.status_code == 302 and r["Location"] == _pagina("claveapi", clave.pk)
    clave.refresh_from_db()
    otra.refresh_from_db()
    assert clave.revocado_en is not None and otra.revocado_en is None
    html = administra.get(r["Location"]).content.decode()
    assert f"{clave}: clave revocada." in html
    assert "/revocar/" not in html  # no button for a revoked key
    entrada = LogEntry.objects.get(object_id=str(clave.pk))
    assert entrada.change_message == "clave revocada."


def test_a_revoked_key_keeps_its_date_and_the_page_says_it_no_longer_applies(administra):
    clave, _ = nueva_clave()
    administra.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/")
    primera = ClaveApi.objects.get(pk=clave.pk).revocado_en
    r = administra.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/", follow=True)
    assert "ya no aplica" in r.content.decode()
    assert ClaveApi.objects.get(pk=clave.pk).revocado_en == primera


def test_staff_who_may_only_view_keys_get_no_button_and_a_403(client):
    lector = UserFactory(is_staff=True)
    dar_permisos(lector, "mcp.view_claveapi")
    client.force_login(lector)
    clave, _ = nueva_clave()
    html = client.get(_pagina("claveapi", clave.pk)).content.decode()
    assert "/revocar/" not in html
    assert client.get(f"/admin/mcp/claveapi/{clave.pk}/revocar/").status_code == 403
    assert client.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/").status_code == 403
    clave.refresh_from_db()
    assert clave.revocado_en is None


def test_staff_with_the_change_permission_may_revoke(client):
    gestor = UserFactory(is_staff=True)
    dar_permisos(gestor, "mcp.view_claveapi", "mcp.change_claveapi")
    client.force_login(gestor)
    clave, _ = nueva_clave()
    assert client.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/").status_code == 302
    clave.refresh_from_db()
    assert clave.revocado_en is not None


def test_an_unknown_key_is_a_404(administra):
    assert administra.get("/admin/mcp/claveapi/999999/revocar/").status_code == 404


def test_a_token_is_revoked_from_its_page_after_confirming(administra):
    camila = UserFactory(username="camila")
    token, _ = nuevo_token(camila, nombre="Portátil")
    html = administra.get(_pagina("tokenpersonal", token.pk)).content.decode()
    assert f'href="/admin/mcp/tokenpersonal/{token.pk}/revocar/"' in html
    confirmacion = administra.get(f"/admin/mcp/tokenpersonal/{token.pk}/revocar/")
    assert "¿Revocar este token personal?" in confirmacion.content.decode()
    r = administra.post(f"/admin/mcp/tokenpersonal/{token.pk}/revocar/")
    assert r.status_code == 302
    assert TokenPersonal.objects.get(pk=token.pk).revocado_en is not None


def test_the_revocation_needs_a_post_with_csrf(client):
    from django.test import Client

    navegador = Client(enforce_csrf_checks=True)
    navegador.force_login(UserFactory(is_staff=True, is_superuser=True))
    clave, _ = nueva_clave()
    assert navegador.post(f"/admin/mcp/claveapi/{clave.pk}/revocar/").status_code == 403
    clave.refresh_from_db()
    assert clave.revocado_en is None
