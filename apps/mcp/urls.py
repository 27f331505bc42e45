"""Routes of the assistant service (mounted under /mcp/)."""

from __future__ import annotations

from django.urls import path

from apps.mcp.paginas import aprobacion
from apps.mcp.protocolo import vista_mcp

app_name = "mcp"
urlpatterns = [
    path("api/mcp", vista_mcp, name="api"),
    # Where a person approves a write of the assistant (issue 40): a random id, never the token.
    path("aprobaciones/<str:clave>/", aprobacion, name="aprobacion"),
]
