"""Branded sign-in and the profile page."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import render


class IngresoView(auth_views.LoginView):
    template_name = "cuentas/login.html"
    redirect_authenticated_user = True


@login_required
def perfil(request):
    return render(request, "cuentas/perfil.html", {})
