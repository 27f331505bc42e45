"""One route: a small JsonResponse shaped like the hub's ping (envelope, service, timestamp)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.utils import timezone


def vista(request: HttpRequest) -> JsonResponse:
    """The cheapest honest answer Django can give: route, call, serialize a small dict."""
    return JsonResponse(
        {
            "success": True,
            "data": {"servicio": "limite", "ts": timezone.localtime().isoformat()},
            "message": "pong",
        }
    )


urlpatterns = [path("limite", vista)]
