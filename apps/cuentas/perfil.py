"""The profile page: who the user is and their assistant access (personal tokens)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render


@login_required
def perfil(request):
    return render(request, "cuentas/perfil.html", {})
