from __future__ import annotations

from django.urls import path

from apps.solicitudes import views

app_name = "solicitudes"
urlpatterns = [
    path("tareas", views.tareas, name="tareas"),
    path("<int:pk>", views.detalle, name="detalle"),
    path("<int:pk>/<slug:accion>", views.actuar, name="actuar"),
]
