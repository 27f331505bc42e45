"""Branded sign-in."""

from __future__ import annotations

from django.contrib.auth import views as auth_views


class IngresoView(auth_views.LoginView):
    template_name = "cuentas/login.html"
    redirect_authenticated_user = True
