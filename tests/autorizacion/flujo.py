"""The OAuth flow driven with Django's test client: register, consent, exchange, refresh."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.autorizacion.factories import REDIRECCION

# The MCP resource the tests' tokens are for (the test server's own address).
MCP = "http://127.0.0.1:8000/mcp/api/mcp"


def pkce() -> tuple[str, str]:
    """(verifier, S256 challenge)."""
    verificador = secrets.token_urlsafe(48)
    reto = base64.urlsafe_b64encode(hashlib.sha256(verificador.encode()).digest())
    return verificador, reto.rstrip(b"=").decode()


def registrar(
    client, *, redirecciones=(REDIRECCION,), nombre="Asistente de prueba", desde=None, **mas
):
    datos = {
        "client_name": nombre,
        "redirect_uris": list(redirecciones),
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **mas,
    }
    extra = {"REMOTE_ADDR": desde} if desde else {}
    return client.post(
        "/oauth/register", json.dumps(datos), content_type="application/json", **extra
    )


@dataclass
class Pedido:
    """One authorization request's parameters."""

    client_id: str
    redirect_uri: str = REDIRECCION
    scope: str | None = "asistente:leer asistente:escribir"
    state: str = field(default_factory=lambda: secrets.token_urlsafe(8))
    verificador: str = ""
    reto: str | None = None
    metodo: str | None = "S256"
    resource: str | None = None

    def __post_init__(self) -> None:
        if self.reto is None:
            self.verificador, self.reto = pkce()

    def parametros(self) -> dict[str, str]:
        datos = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "state": self.state,
        }
        for nombre, valor in (
            ("scope", self.scope),
            ("code_challenge", self.reto),
            ("code_challenge_method", self.metodo),
            ("resource", self.resource),
        ):
            if valor:
                datos[nombre] = valor
        return datos

    def url(self) -> str:
        return "/oauth/authorize?" + urlencode(self.parametros())


def consulta(location: str) -> dict[str, str]:
    """The query of a redirect, one value per name."""
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def aprobar(
    client,
    pedido: Pedido,
    *,
    escribir: bool = True,
    permitir: bool = True,
    areas: list[str] | None = None,
):
    """GET the consent page, then POST the person's decision (the form's own hidden fields; the
    areas ticked as the page offers them, unless `areas` says otherwise)."""
    pagina = client.get(pedido.url())
    assert pagina.status_code == 200, pagina.content[:500]
    formulario = pagina.context["form"]
    datos = {n: v for n, v in formulario.initial.items() if v is not None}
    datos["areas"] = (
        [a["codigo"] for a in pagina.context["areas"] if a["marcada"]] if areas is None else areas
    )
    if permitir:
        datos["allow"] = "Autorizar"
    if escribir:
        datos["escribir"] = "1"
    return client.post("/oauth/authorize", datos)


def canjear(client, pedido: Pedido, codigo: str, *, verificador: str | None = None, **mas):
    datos = {
        "grant_type": "authorization_code",
        "code": codigo,
        "redirect_uri": pedido.redirect_uri,
        "client_id": pedido.client_id,
        "code_verifier": pedido.verificador if verificador is None else verificador,
        **mas,
    }
    return client.post("/oauth/token", datos)


def refrescar(client, client_id: str, refresco: str, **mas):
    datos = {
        "grant_type": "refresh_token",
        "refresh_token": refresco,
        "client_id": client_id,
        **mas,
    }
    return client.post("/oauth/token", datos)


def conectar(client, client_id: str, **pedido) -> tuple[Pedido, dict]:
    """The whole flow for a signed-in person: consent approved, code exchanged."""
    p = Pedido(client_id=client_id, **pedido)
    r = aprobar(client, p)
    assert r.status_code == 302, r.content[:500]
    codigo = consulta(r["Location"])["code"]
    t = canjear(client, p, codigo)
    assert t.status_code == 200, t.content
    return p, t.json()
