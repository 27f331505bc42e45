"""The MCP endpoint as an OAuth protected resource (RFC 9728): its identifier, its metadata
document and the `WWW-Authenticate` challenge every 401 of the endpoint carries.

The identifier is the endpoint's public address (`HUB_URL_PUBLICA` + `/mcp/api/mcp`), never the
request's Host: a client compares it with the address it was given, and a token is bound to it
(RFC 8707), so it must not change with whatever name a request arrived under.
"""

from __future__ import annotations

from django.conf import settings

from apps.mcp.models import AjustesAsistente

RUTA_MCP = "/mcp/api/mcp"
RUTA_METADATOS = "/.well-known/oauth-protected-resource"
REALM = "mcp"


def url_recurso() -> str:
    """The MCP endpoint's public URL: the `resource` of its metadata and of its tokens."""
    return settings.HUB_URL_PUBLICA + RUTA_MCP


def url_metadatos() -> str:
    """The path-inserted metadata URL (RFC 9728 3.1), the one MCP clients try first."""
    return settings.HUB_URL_PUBLICA + RUTA_METADATOS + RUTA_MCP


def desafio(*, token_invalido: bool = False) -> str:
    """The `WWW-Authenticate` value of a 401: realm, the error when a token was bad, and, while
    OAuth is on, where to discover the authorization server (RFC 9728 5.1): with it off, a client
    sent there would look for a sign-in the hub refuses."""
    partes = [f'realm="{REALM}"']
    if token_invalido:
        partes.append('error="invalid_token"')
    if AjustesAsistente.cargar().oauth_habilitado:
        partes.append(f'resource_metadata="{url_metadatos()}"')
    return "Bearer " + ", ".join(partes)
