"""Root URLs: each service under its own prefix (docs/contrato.md, «Servicios»)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt

from apps.marca.views import favicon
from apps.mcp.metadatos import MetadatosRecurso
from apps.solicitudes.views import inicio
from hub.http import paginas_error, respuestas
from hub.observabilidad.metricas_vista import vista_metricas
from hub.observabilidad.ping import SERVICIOS, vista_ping
from hub.openapi.vistas import EsquemaAPI, documentacion


@csrf_exempt
def no_encontrado(request, resto: str = ""):
    """Any unknown path under an /api/ prefix: 404 envelope, never an HTML page."""
    return respuestas.error(404)


urlpatterns = [
    path("", inicio, name="inicio"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("cuentas/", include("apps.portal.urls")),
    path("auth/", include("apps.marca.urls")),
    path("presupuesto/", include("apps.firmas.urls")),
    path("presupuesto/", include("apps.presupuesto.urls")),
    path("calidad/", include("apps.calidad.urls")),
    path("solicitudes/", include("apps.solicitudes.urls")),
    path("mcp/", include("apps.mcp.urls")),
    # RFC 9728: the MCP endpoint's metadata, at the root and at the path-inserted form.
    path(
        ".well-known/oauth-protected-resource",
        MetadatosRecurso.as_view(),
        name="oauth-recurso",
    ),
    path(
        ".well-known/oauth-protected-resource/mcp/api/mcp",
        MetadatosRecurso.as_view(),
        name="oauth-recurso-mcp",
    ),
    # The OAuth authorization server (issue 25): /.well-known/oauth-authorization-server, /oauth/.
    path("", include("apps.autorizacion.urls")),
    path("notificaciones/", include("apps.notificaciones.urls")),
    path("salud/", include("hub.observabilidad.salud")),
    path("metricas/", vista_metricas, name="metricas"),
    *[path(f"{s}/api/v1/ping", vista_ping(s), name=f"ping-{s}") for s in SERVICIOS],
    # Before the catch-all: the OpenAPI schema of the v1 interface and its browsable page.
    path("api/schema/", EsquemaAPI.as_view(), name="esquema"),
    path("api/docs/", documentacion, name="documentacion"),
    re_path(r"^(?P<resto>(?:[\w-]+/)?api(?:/.*)?)$", no_encontrado),
]

# People get the branded Spanish pages (hub.http.paginas_error); /api/ paths the envelope.
handler400 = respuestas.handler_api(400, paginas_error.solicitud_invalida)
handler403 = respuestas.handler_api(403, paginas_error.prohibido)
handler404 = respuestas.handler_api(404, paginas_error.no_encontrado)
handler500 = respuestas.handler_api(500, paginas_error.error_servidor)
