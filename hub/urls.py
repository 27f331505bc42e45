"""Root URLs: each service under its own prefix (DESIGN.md section 2)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from django.views import defaults
from django.views.generic import RedirectView

from apps.marca.views import favicon
from hub import respuestas
from hub.openapi.vistas import EsquemaAPI, documentacion
from hub.ping import SERVICIOS, vista_ping


def no_encontrado(request, resto: str = ""):
    """Any unknown path under an /api/ prefix: 404 envelope, never an HTML page."""
    return respuestas.error(404)


urlpatterns = [
    path("", RedirectView.as_view(pattern_name="cuentas:login", permanent=False)),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("cuentas/", include("apps.cuentas.urls")),
    path("auth/", include("apps.marca.urls")),
    path("presupuesto/", include("apps.firmas.urls")),
    path("solicitudes/", include("apps.solicitudes.urls")),
    path("mcp/", include("apps.mcp.urls")),
    path("notificaciones/", include("apps.notificaciones.urls")),
    path("salud/", include("hub.salud")),
    *[path(f"{s}/api/v1/ping", vista_ping(s), name=f"ping-{s}") for s in SERVICIOS],
    # Before the catch-all: the OpenAPI schema of the v1 interface and its browsable page.
    path("api/schema/", EsquemaAPI.as_view(), name="esquema"),
    path("api/docs/", documentacion, name="documentacion"),
    re_path(r"^(?P<resto>(?:[\w-]+/)?api(?:/.*)?)$", no_encontrado),
]

handler400 = respuestas.handler_api(400, defaults.bad_request)
handler403 = respuestas.handler_api(403, defaults.permission_denied)
handler404 = respuestas.handler_api(404, defaults.page_not_found)
handler500 = respuestas.handler_api(500, defaults.server_error)
