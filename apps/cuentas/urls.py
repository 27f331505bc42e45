from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from apps.cuentas import perfil, views

app_name = "cuentas"
urlpatterns = [
    path("login/", views.IngresoView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("perfil/", perfil.perfil, name="perfil"),
]
