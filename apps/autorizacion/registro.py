"""Who may register a client: the library's permission classes, with the hub's switches.

Dynamic registration (RFC 7591) is open to anyone while the administrator keeps it open (MCP
clients register before anyone signs in); the view counts it per address. Client ID metadata
documents are accepted while their switch is on (the default), from any public host or only from
the hosts the administrator lists.
"""

from __future__ import annotations

from urllib.parse import urlparse

from django.http.request import validate_host

from apps.mcp.models import AjustesAsistente


class RegistroPermitido:
    """DCR_REGISTRATION_PERMISSION_CLASSES: open registration, unless switched off."""

    def has_permission(self, request) -> bool:
        ajustes = AjustesAsistente.cargar()
        return ajustes.oauth_habilitado and ajustes.oauth_registro_abierto


class CimdPermitido:
    """CIMD_REGISTRATION_PERMISSION_CLASSES: switch on, and the document's host allowed (an
    empty list: any host; the library's fetcher reaches only public addresses whatever it is)."""

    def has_permission(self, request, client_id) -> bool:
        ajustes = AjustesAsistente.cargar()
        if not (ajustes.oauth_habilitado and ajustes.oauth_cimd_habilitado):
            return False
        host = urlparse(client_id).hostname
        dominios = ajustes.oauth_cimd_dominios or ["*"]
        return bool(host) and validate_host(host, dominios)
