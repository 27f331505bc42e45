"""RFC 9728 protected resource metadata of the MCP endpoint: the library's view, told the hub's
resource identifier (apps.mcp.recurso) instead of deriving it from the request's Host.

Served at `/.well-known/oauth-protected-resource` and at the path-inserted form
`/.well-known/oauth-protected-resource/mcp/api/mcp` (the hub has one protected resource, so both
say the same). The authorization server is the hub itself (issuer `HUB_URL_PUBLICA`, as its RFC
8414 document says), and the scopes are the library's configured ones.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.views import OAuthProtectedResourceMetadataView

from apps.mcp import recurso


@method_decorator(csrf_exempt, name="dispatch")  # an /api/ path: its other methods get the 405
class MetadatosRecurso(OAuthProtectedResourceMetadataView):
    """GET: the metadata document (public, any origin may read it)."""

    http_method_names = ["get", "head", "options"]

    def get_resource(self, request: HttpRequest) -> str:
        return recurso.url_recurso()

    def get_authorization_servers(self, request: HttpRequest) -> list[str]:
        # The issuer of the RFC 8414 document (apps.autorizacion.vistas): HUB_URL_PUBLICA.
        return [settings.HUB_URL_PUBLICA]

    def get_resource_name(self) -> str:
        return "Asistente del hub institucional (MCP)"
