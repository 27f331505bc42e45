"""A NUL byte in an admin list's filter or search answers a page, never a 500 (PostgreSQL cannot
take NUL in a text query; SQLite can, so both databases must answer alike)."""

from __future__ import annotations

import pytest

from apps.mcp.models import RegistroAuditoria

pytestmark = pytest.mark.django_db

AUDITORIA = "/admin/mcp/registroauditoria/"


@pytest.mark.parametrize(
    "ruta",
    [
        f"{AUDITORIA}?request_id=%00",
        f"{AUDITORIA}?herramienta=estado%00cdp",
        f"{AUDITORIA}?resultado__exact=ok&request_id__startswith=a%00",
        f"{AUDITORIA}?q=%00",
        f"{AUDITORIA}?%00=1",
        "/admin/notificaciones/mensajecontacto/?asunto=%00",
        "/admin/cuentas/user/?username=%00&q=x",
        "/admin/solicitudes/solicitud/?q=SOL%00",
    ],
)
def test_a_nul_byte_in_an_admin_list_query_answers_the_unfiltered_list(admin_client, ruta):
    r = admin_client.get(ruta)
    # The admin's own answer to a filter it cannot apply: the list again, flagged ?e=1.
    assert r.status_code == 302
    assert r["Location"] == ruta.split("?")[0] + "?e=1"
    pagina = admin_client.get(r["Location"])
    assert pagina.status_code == 200
    assert "cl" in pagina.context  # the change list itself


def test_the_unfiltered_audit_list_still_shows_its_rows(admin_client):
    fila = RegistroAuditoria.objects.create(
        herramienta="estado_cdp", resultado="ok", credencial="clave_api"
    )
    pagina = admin_client.get(f"{AUDITORIA}?request_id=%00", follow=True)
    assert pagina.status_code == 200
    assert f"{AUDITORIA}{fila.pk}/change/" in pagina.content.decode()


def test_filters_without_nul_are_untouched(admin_client):
    RegistroAuditoria.objects.create(
        herramienta="estado_cdp", resultado="ok", credencial="clave_api"
    )
    r = admin_client.get(f"{AUDITORIA}?herramienta=estado_cdp")
    assert r.status_code == 200
    assert r.context["cl"].result_count == 1


def test_an_apps_own_admin_page_gets_the_same_answer(admin_client):
    # The guard wraps every admin view (hub.administracion.sitio.SitioAdmin.admin_view), not only
    # lists.
    r = admin_client.get(f"{AUDITORIA}exportar/?request_id=%00")
    assert r.status_code == 302
    assert r["Location"] == f"{AUDITORIA}exportar/?e=1"


def test_a_person_not_signed_in_is_sent_to_sign_in_first(client):
    r = client.get(f"{AUDITORIA}?request_id=%00")
    assert r.status_code == 302
    assert r["Location"].startswith("/admin/login/?next=")
