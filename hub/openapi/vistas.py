"""The served schema (generated once per process) and the browsable documentation page."""

from __future__ import annotations

import threading
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from drf_spectacular.views import SpectacularAPIView

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

    def _get_schema_response(self, request):
        renderer, tipo = request.accepted_renderer, request.accepted_media_type
        # Rendered once per format too: rendering 100 kB of YAML costs more than a request should.
        if tipo not in _rendidos:
            _rendidos[tipo] = renderer.render(
                esquema_generado(self.generator_class, request), tipo, {"view": self}
            )
        content_type = f"{tipo}; charset={renderer.charset}" if renderer.charset else tipo
        return HttpResponse(
            _rendidos[tipo],
            content_type=content_type,
            headers={
                "Content-Disposition": f'inline; filename="{self._get_filename(request, None)}"'
            },
        )


def _sidecar(archivo: str) -> str:
    return static(f"drf_spectacular_sidecar/swagger-ui-dist/{archivo}")


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
