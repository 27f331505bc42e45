"""The authorization server's routes, in the library's URL namespace (its metadata and views
reverse `oauth2_provider:…`). Mounted at the root by hub/urls.py: RFC 8414 puts the metadata at
the origin's /.well-known/. The RFC 7592 management routes, introspection, device flow and the
library's application pages are not mounted. A NUL in a request is refused before any of them
reads it (apps.autorizacion.nulos)."""

from __future__ import annotations

from django.urls import path
from oauth2_provider import views as vistas_oauth

from apps.autorizacion import nulos
from apps.autorizacion.consentimiento import Autorizacion
from apps.autorizacion.vistas import Registro, Token, metadatos_servidor
from apps.mcp.recurso import RUTA_MCP

app_name = "oauth2_provider"
urlpatterns = [
    path(
        ".well-known/oauth-authorization-server",
        metadatos_servidor,
        name="oauth-server-metadata",
    ),
    # The same RFC 8414 document where clients look for it: the path-inserted form (a client
    # that takes the MCP endpoint for the issuer) and OpenID Connect discovery (a client that
    # tries it first). Never an OpenID Provider's claims: the hub issues no id_token.
    path(
        ".well-known/oauth-authorization-server" + RUTA_MCP,
        metadatos_servidor,
        name="oauth-server-metadata-mcp",
    ),
    path(".well-known/openid-configuration", metadatos_servidor, name="openid-configuration"),
    path(
        ".well-known/openid-configuration" + RUTA_MCP,
        metadatos_servidor,
        name="openid-configuration-mcp",
    ),
    path("oauth/authorize", nulos.en_pagina(Autorizacion.as_view()), name="authorize"),
    path("oauth/token", nulos.en_json(Token.as_view()), name="token"),
    path(
        "oauth/revoke",
        nulos.en_json(vistas_oauth.RevokeTokenView.as_view()),
        name="revoke-token",
    ),
    path("oauth/register", Registro.as_view(), name="dcr-register"),
]
