"""Branded sign-in and sign-out of the staff (the brand comes from `templates/base.html`)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm


class FormularioIngreso(AuthenticationForm):
    """Django's sign-in form with the interface's Spanish labels and messages."""

    error_messages = {
        "invalid_login": "Usuario o contraseña incorrectos. Revise los datos e intente de nuevo.",
        "inactive": "Esta cuenta está desactivada. Comuníquese con la mesa de ayuda.",
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        usuario: forms.Field = self.fields["username"]
        clave: forms.Field = self.fields["password"]
        usuario.label = "Usuario"
        usuario.error_messages["required"] = "Escriba su usuario."
        clave.label = "Contraseña"
        clave.error_messages["required"] = "Escriba su contraseña."


class IngresoView(auth_views.LoginView):
    """GET shows the branded sign-in page; a correct POST goes to the profile (or `next`)."""

    template_name = "cuentas/login.html"
    authentication_form = FormularioIngreso
    redirect_authenticated_user = True
