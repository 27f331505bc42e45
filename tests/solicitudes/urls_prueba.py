"""The root URLs plus the request screen (mounted here until hub/urls.py includes it)."""

from __future__ import annotations

from django.urls import include, path

from hub.urls import urlpatterns as raiz

urlpatterns = [path("solicitudes/", include("apps.solicitudes.urls")), *raiz]
