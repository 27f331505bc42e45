"""The served schema (generated once per process) and the browsable documentation page."""

from __future__ import annotations

import threading
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView

from hub.http import respuestas

_esquema: dict[str, Any] | None = None
_candado = threading.Lock()
_rendidos: dict[str, bytes] = {}


def esquema_generado(generator_class, request=None) -> dict[str, Any]:
    """The schema, generated on first use: it only changes with the code, never at runtime."""
    global _esquema
    if _esquema is None:
        with _candado:
            if _esquema is None:
                _esquema = generator_class().get_schema(request=request, public=True)
    return _esquema


class EsquemaAPI(SpectacularAPIView):
    """GET /api/schema/: YAML by default; JSON with ?format=json or Accept: application/json."""

    @extend_schema(**SCHEMA_KWARGS)
    def get(self, request, *args, **kwargs):
        renderer, tipo = request.accepted_renderer, request.accepted_media_type
        # Rendered once per format too: rendering 100 kB of YAML costs more than a request should.
        if tipo not in _rendidos:
            _rendidos[tipo] = renderer.render(
                esquema_generado(self.generator_class, request), tipo, {"view": self}
            )
        content_type = f"{tipo}; charset={renderer.charset}" if renderer.charset else tipo
        # The library's own name for the download: "<TITLE>.<format>".
        nombre = f"{spectacular_settings.TITLE or 'schema'}.{renderer.format}"
        return HttpResponse(
            _rendidos[tipo],
            content_type=content_type,
            headers={"Content-Disposition": f'inline; filename="{nombre}"'},
        )


def _sidecar(archivo: str) -> str:
    return static(f"drf_spectacular_sidecar/swagger-ui-dist/{archivo}")


@csrf_exempt  # an /api/ path: no cookie to protect, and a POST gets the 405 envelope
@respuestas.metodos("GET")
def documentacion(request: HttpRequest) -> HttpResponse:
    """GET /api/docs/: Swagger UI from local files, started by a static script (strict CSP)."""
    return render(
        request,
        "api/docs.html",
        {
            "css": _sidecar("swagger-ui.css"),
            "bundle": _sidecar("swagger-ui-bundle.js"),
            "favicon": _sidecar("favicon-32x32.png"),
            "esquema_url": reverse("esquema") + "?format=json",
        },
    )
