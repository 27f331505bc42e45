from __future__ import annotations

from django.urls import path

from apps.solicitudes import listado, views

app_name = "solicitudes"
urlpatterns = [
    path("tareas", views.tareas, name="tareas"),
    path("", listado.lista, name="lista"),
    path("<int:pk>", views.detalle, name="detalle"),
    path("<int:pk>/firmar", views.firmar, name="firmar"),
    path("<int:pk>/<slug:accion>", views.actuar, name="actuar"),
]
