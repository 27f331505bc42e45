"""The profile page's assistant access: create (shown once), list and revoke personal tokens."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.mcp.models import AjustesAsistente, TokenPersonal
from apps.mcp.secretos import PREFIJO_TOKEN
from apps.mcp.services import MAX_TOKENS_ACTIVOS
from hub import secretos
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/"
PATRON_TOKEN = re.compile(r"sgimcp_[0-9A-Za-z]{38}")


def _crear(client, nombre="Portátil", dias="30"):
    return client.post(
        URL,
        {
            "accion": "crear",
            "nombre": nombre,
            "dias": dias,
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
    )


def _ping(token: str) -> int:
    r = Client().post(
        "/mcp/api/mcp",
        data={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        content_type="application/json",
        headers={"X-MCP-User-Token": token},
    )
    return r.status_code


def test_the_page_requires_login(client):
    r = client.get(URL)
    assert r.status_code == 302
    assert r["Location"].startswith("/cuentas/login/")


def test_the_page_shows_the_person_and_the_creation_form(navegante, persona):
    r = navegante.get(URL)
    html = r.content.decode()
    assert r.status_code == 200
    assert persona.username in html
    assert 'name="accion" value="crear"' in html
    assert "Aún no tiene tokens." in html
    assert "no-store" in r["Cache-Control"]


def test_a_new_token_is_shown_exactly_once_and_works(navegante, persona):
    r = _crear(navegante)
    assert r.status_code == 302 and r["Location"] == URL + "#token-nuevo"
    assert not PATRON_TOKEN.search(r.content.decode())
    primera = navegante.get(URL).content.decode()
    encontrados = set(PATRON_TOKEN.findall(primera))
    assert len(encontrados) == 1
    secreto = encontrados.pop()
    assert secretos.bien_formado(secreto, PREFIJO_TOKEN)
    token = TokenPersonal.objects.get(usuario=persona)
    assert token.digest == secretos.huella(secreto)
    assert token.nombre == "Portátil"
    assert timedelta(days=29, hours=23) < token.vence - timezone.now() <= timedelta(days=30)
    assert "Copiar token" in primera
    segunda = navegante.get(URL).content.decode()
    assert secreto not in segunda
    assert not PATRON_TOKEN.search(segunda)
    assert token.prefijo in segunda
    assert _ping(secreto) == 200


def _configuracion(html: str, ident: str) -> dict:
    bloque = re.search(rf'<pre class="config" id="config-{ident}">(.*?)</pre>', html, re.S)
    return json.loads(unescape(bloque.group(1)))


def test_each_client_family_gets_its_own_format_with_the_new_token(navegante):
    _crear(navegante)
    html = navegante.get(URL).content.decode()
    secreto = PATRON_TOKEN.search(html).group(0)
    endpoint = "http://testserver/mcp/api/mcp"
    http = {"type": "http", "url": endpoint, "headers": {"X-MCP-User-Token": secreto}}
    assert _configuracion(html, "vscode") == {"servers": {"hub": http}}
    assert _configuracion(html, "mcpservers") == {"mcpServers": {"hub": http}}
    assert _configuracion(html, "puente") == {
        "mcpServers": {
            "hub": {
                "command": "npx",
                "args": [
                    "-y",
                    "mcp-remote",
                    endpoint,
                    "--header",
                    "X-MCP-User-Token:${HUB_USER_TOKEN}",
                ],
                "env": {"HUB_USER_TOKEN": secreto},
            }
        }
    }


def test_before_creating_a_token_the_configurations_carry_a_placeholder(navegante):
    html = navegante.get(URL).content.decode()
    assert _configuracion(html, "vscode")["servers"]["hub"]["headers"] == {
        "X-MCP-User-Token": "SU_TOKEN_PERSONAL"
    }
    assert not PATRON_TOKEN.search(html)


def test_the_configuration_asks_for_the_api_key_when_the_organization_requires_it(navegante):
    ajustes = AjustesAsistente.cargar()
    ajustes.permitir_token_solo = False
    ajustes.save()
    _crear(navegante)
    html = navegante.get(URL).content.decode()
    cabeceras = _configuracion(html, "mcpservers")["mcpServers"]["hub"]["headers"]
    assert cabeceras["X-MCP-Api-Key"] == "CLAVE_DE_API_DE_LA_ORGANIZACION"
    puente = _configuracion(html, "puente")["mcpServers"]["hub"]
    assert "X-MCP-Api-Key:${HUB_API_KEY}" in puente["args"]
    assert puente["env"]["HUB_API_KEY"] == "CLAVE_DE_API_DE_LA_ORGANIZACION"


def test_expiry_choices_are_bounded_by_the_organization_maximum(navegante, persona):
    ajustes = AjustesAsistente.cargar()
    ajustes.token_max_dias = 45
    ajustes.save()
    html = navegante.get(URL).content.decode()
    assert re.findall(r'<option value="(\d+)"', html) == ["7", "30", "45"]
    r = _crear(navegante, dias="90")
    assert r.status_code == 200
    assert "dias" in r.context["formulario"].errors
    assert not TokenPersonal.objects.filter(usuario=persona).exists()


@pytest.mark.parametrize(("nombre", "dias"), [("", "30"), ("x" * 101, "30"), ("Ok", "tres")])
def test_invalid_creation_data_creates_nothing(navegante, persona, nombre, dias):
    r = _crear(navegante, nombre=nombre, dias=dias)
    assert r.status_code == 200
    assert r.context["formulario"].errors
    assert not TokenPersonal.objects.filter(usuario=persona).exists()


def test_a_person_without_assistant_access_sees_an_explanation_and_cannot_create(client):
    sin_asistente = UserFactory(username="lucia")
    client.force_login(sin_asistente)
    html = client.get(URL).content.decode()
    assert 'id="sin-acceso"' in html
    assert 'value="crear"' not in html
    assert "Cómo conectarse" not in html and 'id="clientes"' not in html
    r = _crear(client)
    assert r.status_code == 403
    assert not TokenPersonal.objects.exists()


def test_a_token_whose_owner_lost_access_shows_as_without_access_not_active(client):
    lucia = UserFactory(username="lucia")
    token, secreto = nuevo_token(lucia, nombre="Antiguo")
    client.force_login(lucia)
    html = client.get(URL).content.decode()
    fila = re.search(rf'<tr data-token="{token.pk}">(.*?)</tr>', html, re.S).group(1)
    assert '<span class="estado estado-sin-acceso">sin acceso</span>' in fila
    assert "estado-activo" not in fila
    assert 'value="regenerar"' not in fila and 'value="revocar"' in fila
    assert _ping(secreto) == 403  # what the page says is what the endpoint does
    r = client.post(URL, {"accion": "regenerar", "token_id": token.pk, "confirmado": "si"})
    assert r.status_code == 403
    assert TokenPersonal.objects.filter(usuario=lucia).count() == 1


def test_active_tokens_are_capped(navegante, persona):
    for _ in range(MAX_TOKENS_ACTIVOS):
        nuevo_token(persona)
    r = _crear(navegante)
    assert r.status_code == 200
    assert "revoque alguno" in r.content.decode()
    assert TokenPersonal.objects.filter(usuario=persona).count() == MAX_TOKENS_ACTIVOS


def test_the_list_shows_prefix_dates_last_use_and_state(navegante, persona):
    activo, _ = nuevo_token(persona, nombre="Activo")
    nuevo_token(persona, nombre="Viejo", dias=-1)
    nuevo_token(persona, nombre="Perdido", revocado=True)
    TokenPersonal.objects.filter(pk=activo.pk).update(
        ultimo_uso=timezone.now(), ultima_ip="203.0.113.9"
    )
    html = navegante.get(URL).content.decode()
    filas = dict(
        re.findall(r'<tr data-token="\d+">\s*<td><strong>(\w+)</strong></td>(.*?)</tr>', html, re.S)
    )
    assert set(filas) == {"Activo", "Viejo", "Perdido"}
    assert "estado-activo" in filas["Activo"] and "203.0.113.9" in filas["Activo"]
    assert activo.prefijo in filas["Activo"]
    assert "estado-vencido" in filas["Viejo"] and "Nunca" in filas["Viejo"]
    assert "estado-revocado" in filas["Perdido"]
    assert "Revocar" in filas["Activo"]
    assert "Revocar" not in filas["Viejo"] and "Revocar" not in filas["Perdido"]


def test_revoking_asks_for_confirmation_first(navegante, persona):
    token, secreto = nuevo_token(persona)
    r = navegante.post(URL, {"accion": "revocar", "token_id": token.pk})
    assert r.status_code == 200
    assert 'id="confirmar-revocacion"' in r.content.decode()
    token.refresh_from_db()
    assert token.estado == "activo"
    r = navegante.post(URL, {"accion": "revocar", "token_id": token.pk, "confirmado": "si"})
    assert r.status_code == 302
    token.refresh_from_db()
    assert token.estado == "revocado"
    assert _ping(secreto) == 401
    assert "quedó revocado" in navegante.get(URL).content.decode()


def test_nobody_sees_or_revokes_another_persons_tokens(client, persona):
    ajeno, secreto = nuevo_token(persona, nombre="De Camila")
    colega = UserFactory(username="colega", permisos=["mcp.asistente.usar"])
    client.force_login(colega)
    html = client.get(URL).content.decode()
    assert "De Camila" not in html and ajeno.prefijo not in html
    for datos in (
        {"accion": "revocar", "token_id": ajeno.pk},
        {"accion": "revocar", "token_id": ajeno.pk, "confirmado": "si"},
        {"accion": "revocar", "token_id": "no-numero"},
    ):
        assert client.post(URL, datos).status_code == 404
    ajeno.refresh_from_db()
    assert ajeno.estado == "activo"
    assert _ping(secreto) == 200


def test_the_owner_sees_their_token_and_the_colleague_their_own(client, persona):
    nuevo_token(persona, nombre="Propio")
    colega = UserFactory(username="colega2", permisos=["mcp.asistente.usar"])
    nuevo_token(colega, nombre="DelColega")
    client.force_login(persona)
    html = client.get(URL).content.decode()
    assert "Propio" in html and "DelColega" not in html
    client.force_login(colega)
    html = client.get(URL).content.decode()
    assert "DelColega" in html and "Propio" not in html


def test_an_unknown_action_is_400(navegante):
    assert navegante.post(URL, {"accion": "borrar_todo"}).status_code == 400


def test_posts_require_the_csrf_token(persona):
    cliente = Client(enforce_csrf_checks=True)
    cliente.force_login(persona)
    assert (
        cliente.post(
            URL,
            {
                "accion": "crear",
                "nombre": "X",
                "dias": "30",
                "areas": ["solicitudes", "presupuesto", "calidad"],
            },
        ).status_code
        == 403
    )
    assert not TokenPersonal.objects.exists()


def test_the_page_costs_the_same_with_many_tokens(navegante, persona, django_assert_num_queries):
    nuevo_token(persona)
    navegante.get(URL)
    with CaptureQueriesContext(connection) as contexto:
        navegante.get(URL)
    for _ in range(15):
        nuevo_token(persona)
    with django_assert_num_queries(len(contexto.captured_queries)):
        navegante.get(URL)
