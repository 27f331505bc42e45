from __future__ import annotations

from django.urls import path

from apps.solicitudes import views

app_name = "solicitudes"
urlpatterns = [
    path("<int:pk>", views.detalle, name="detalle"),
]
