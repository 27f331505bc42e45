"""What the hosted connectors and desktop clients do, as helpers for their tests: each registers,
signs in and exchanges the way its documentation and public issue threads say it does."""

from __future__ import annotations

import base64
from urllib.parse import quote

from tests.autorizacion.flujo import Pedido, aprobar, consulta, registrar

CLAUDE_AI = "https://claude.ai/api/mcp/auth_callback"
CLAUDE_COM = "https://claude.com/api/mcp/auth_callback"
CHATGPT = "https://chatgpt.com/connector/oauth/cb_4f2a9e1d"
CHATGPT_ANTERIOR = "https://chatgpt.com/connector_platform_oauth_redirect"


def basic(client_id: str, secreto: str) -> str:
    """RFC 6749 2.3.1: id and secret form-encoded, then base64 (the Authorization value)."""
    pareja = f"{quote(client_id, safe='')}:{quote(secreto, safe='')}"
    return "Basic " + base64.b64encode(pareja.encode()).decode()


def registrar_con(client, metodo: str, redireccion: str, nombre: str = "Claude") -> dict:
    """A registration naming its token_endpoint_auth_method; the hub's 201 answer."""
    r = registrar(
        client, redirecciones=[redireccion], nombre=nombre, token_endpoint_auth_method=metodo
    )
    assert r.status_code == 201, r.content
    return r.json()


def codigo(client, pedido: Pedido) -> str:
    """The person approves on the consent page: the code the client receives."""
    r = aprobar(client, pedido)
    assert r.status_code == 302, r.content[:300]
    return consulta(r["Location"])["code"]


def canje(pedido: Pedido, valor: str, **mas) -> dict:
    """The token request's body for this code."""
    return {
        "grant_type": "authorization_code",
        "code": valor,
        "redirect_uri": pedido.redirect_uri,
        "code_verifier": pedido.verificador,
        **mas,
    }
