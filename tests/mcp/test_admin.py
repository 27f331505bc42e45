"""Admin of the assistant: API keys shown exactly once, tokens revocable, settings editable."""

from __future__ import annotations

import re

import pytest

from apps.mcp import secretos
from apps.mcp.models import AjustesAsistente, ClaveApi, TokenPersonal
from tests.factories import UserFactory
from tests.mcp.conftest import rpc
from tests.mcp.factories import nueva_clave, nuevo_token

pytestmark = pytest.mark.django_db

PATRON_CLAVE = re.compile(r"sgiapi_[0-9A-Za-z]{38}")


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_t", is_staff=True, is_superuser=True))
    return client


def test_a_new_api_key_is_shown_exactly_once_and_works(administra):
    r = administra.post("/admin/mcp/claveapi/add/", {"nombre": "Chat institucional", "vence": ""})
    assert r.status_code == 200
    assert "no-store" in r["Cache-Control"]
    [secreto] = set(PATRON_CLAVE.findall(r.content.decode()))
    clave = ClaveApi.objects.get()
    assert clave.nombre == "Chat institucional"
    assert clave.digest == secretos.huella(secreto)
    assert clave.creada_por.username == "admin_t"
    for pagina in ("/admin/mcp/claveapi/", f"/admin/mcp/claveapi/{clave.pk}/change/"):
        html = administra.get(pagina).content.decode()
        assert secreto not in html and clave.digest not in html
        assert clave.prefijo in html
    assert rpc(administra, "ping", **{"X-MCP-Api-Key": secreto}).status == 200


def test_api_keys_are_revoked_not_deleted(administra):
    clave, secreto = nueva_clave()
    r = administra.post(
        "/admin/mcp/claveapi/", {"action": "revocar", "_selected_action": [clave.pk]}
    )
    assert r.status_code == 302
    clave.refresh_from_db()
    assert clave.estado == "revocado"
    assert rpc(administra, "ping", **{"X-MCP-Api-Key": secreto}).status == 401
    assert administra.get(f"/admin/mcp/claveapi/{clave.pk}/delete/").status_code == 403


def test_personal_tokens_are_listed_without_secrets_and_can_be_revoked(administra):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    token, secreto = nuevo_token(persona)
    html = administra.get("/admin/mcp/tokenpersonal/").content.decode()
    assert token.prefijo in html and secreto not in html and token.digest not in html
    assert administra.get("/admin/mcp/tokenpersonal/add/").status_code == 403
    administra.post(
        "/admin/mcp/tokenpersonal/", {"action": "revocar", "_selected_action": [token.pk]}
    )
    token.refresh_from_db()
    assert token.estado == "revocado"


def test_the_settings_are_edited_in_the_admin_and_apply_at_once(administra):
    AjustesAsistente.cargar()
    url = "/admin/mcp/ajustesasistente/1/change/"
    assert administra.get(url).status_code == 200
    datos = {
        "escrituras_habilitadas": "",
        "herramientas_publicas": '["buscar_documento"]',
        "permitir_token_solo": "on",
        "token_max_dias": "30",
        "confirmacion_segundos": "120",
        "origenes_permitidos": '["https://asistente.entidad.gov.co"]',
        "integracion_por_minuto": "100",
        "usuario_por_minuto": "50",
        "escrituras_por_minuto": "3",
        "verificaciones_fallidas_por_hora": "5",
    }
    assert administra.post(url, datos).status_code == 302
    ajustes = AjustesAsistente.cargar()
    assert ajustes.herramientas_publicas == ["buscar_documento"]
    assert ajustes.escrituras_habilitadas is False and ajustes.usuario_por_minuto == 50
    malo = administra.post(url, {**datos, "herramientas_publicas": '["mis_tareas_x"]'})
    assert malo.status_code == 200
    assert "mis_tareas_x" in malo.content.decode()
    assert AjustesAsistente.cargar().herramientas_publicas == ["buscar_documento"]


def test_the_settings_cannot_be_deleted_or_duplicated(administra):
    AjustesAsistente.cargar()
    assert administra.get("/admin/mcp/ajustesasistente/add/").status_code == 403
    assert administra.get("/admin/mcp/ajustesasistente/1/delete/").status_code == 403


def test_a_token_row_never_holds_the_secret(administra):
    token, secreto = nuevo_token(UserFactory(permisos=["mcp.asistente.usar"]))
    fila = TokenPersonal.objects.filter(pk=token.pk).values().get()
    assert secreto not in repr(fila)
