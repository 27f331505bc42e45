"""A new personal token is shown once and rests nowhere in clear: not in the session table, not
in the logs, not in the audit log; a reload neither shows it again nor creates a second one."""

from __future__ import annotations

import base64
import logging
import re

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from apps.mcp.entrega import DURACION
from apps.mcp.models import RegistroAuditoria, TokenPersonal
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/"
PATRON_TOKEN = re.compile(r"sgimcp_[0-9A-Za-z]{38}")
COOKIE = "hub_entrega_token"


def _crear(client, nombre="Portátil"):
    return client.post(
        URL,
        {
            "accion": "crear",
            "nombre": nombre,
            "dias": "30",
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
    )


def _todo_lo_guardado_en_sesiones() -> str:
    """Every session row, raw and decoded (base64 included), as one text."""
    partes = []
    for sesion in Session.objects.all():
        partes += [sesion.session_data, repr(sesion.get_decoded())]
        for valor in sesion.get_decoded().values():
            if isinstance(valor, dict) and "cifrado" in valor:
                partes.append(base64.urlsafe_b64decode(valor["cifrado"]).decode("latin-1"))
    return "\n".join(partes)


def test_the_secret_is_in_no_session_row_log_or_audit_row(navegante, persona, caplog):
    with caplog.at_level(logging.DEBUG):
        r = _crear(navegante)
        # Between the POST and the page that shows it, the server holds only half of it.
        guardado = _todo_lo_guardado_en_sesiones()
        pagina = navegante.get(r["Location"]).content.decode()
    secreto = PATRON_TOKEN.search(pagina).group(0)
    assert secreto not in guardado
    assert secreto not in _todo_lo_guardado_en_sesiones()
    assert all(secreto not in registro.getMessage() for registro in caplog.records)
    ping = Client().post(
        "/mcp/api/mcp",
        data={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "mis_accesos"}},
        content_type="application/json",
        headers={"X-MCP-User-Token": secreto},
    )
    assert ping.status_code == 200
    assert RegistroAuditoria.objects.filter(usuario=persona).exists()
    for fila in RegistroAuditoria.objects.values():
        assert secreto not in repr(fila)


def test_the_cookie_alone_is_not_the_secret_either(navegante):
    r = _crear(navegante)
    pad = r.cookies[COOKIE]
    assert pad["httponly"] and pad["samesite"] == "Strict" and pad["path"] == URL
    assert int(pad["max-age"]) == DURACION
    secreto = PATRON_TOKEN.search(navegante.get(r["Location"]).content.decode()).group(0)
    assert secreto not in pad.value
    assert secreto not in base64.urlsafe_b64decode(pad.value).decode("latin-1")


def test_a_reload_neither_shows_it_again_nor_creates_a_second_token(navegante, persona):
    r = _crear(navegante)
    primera = navegante.get(r["Location"])
    assert len(set(PATRON_TOKEN.findall(primera.content.decode()))) == 1
    assert primera.cookies[COOKIE].value == ""  # the browser's half is deleted when shown
    recarga = navegante.get(r["Location"]).content.decode()
    assert not PATRON_TOKEN.search(recarga)
    assert 'id="token-nuevo"' not in recarga
    assert TokenPersonal.objects.filter(usuario=persona).count() == 1
    assert not any(
        isinstance(v, dict) for s in Session.objects.all() for v in s.get_decoded().values()
    )


def test_without_the_browsers_half_the_secret_is_not_shown(navegante, persona):
    r = _crear(navegante)
    navegante.cookies.pop(COOKIE)
    html = navegante.get(r["Location"]).content.decode()
    assert not PATRON_TOKEN.search(html)
    assert 'id="token-no-mostrado"' in html
    assert TokenPersonal.objects.filter(usuario=persona).count() == 1


def test_a_half_that_does_not_join_into_the_stored_digest_is_not_shown(navegante):
    r = _crear(navegante)
    pad = base64.urlsafe_b64decode(navegante.cookies[COOKIE].value)
    navegante.cookies[COOKIE] = base64.urlsafe_b64encode(bytes([pad[0] ^ 1]) + pad[1:]).decode()
    html = navegante.get(r["Location"]).content.decode()
    assert not re.search(r'id="valor-token" value="', html)
    assert 'id="token-no-mostrado"' in html


def test_another_persons_pending_token_is_never_shown(navegante, client):
    r = _crear(navegante)
    sesion = navegante.session
    colega = UserFactory(username="colega", permisos=["mcp.asistente.usar"])
    otro = Client()
    otro.force_login(colega)
    # The colleague's browser carries Camila's half and a session that points at her token.
    otra_sesion = otro.session
    otra_sesion["hub_entrega_token"] = sesion["hub_entrega_token"]
    otra_sesion.save()
    otro.cookies[COOKIE] = navegante.cookies[COOKIE].value
    assert not PATRON_TOKEN.search(otro.get(r["Location"]).content.decode())
