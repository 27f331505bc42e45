"""The branded sign-in page of the staff, which also says which app waits for this sign-in (its
OAuth authorization request): it gathers the accounts and the OAuth apps, so it lives above both."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.utils.decorators import method_decorator

from apps.autorizacion.consentimiento import pedido_en_espera
from apps.cuentas.formularios import FormularioIngreso
from apps.cuentas.intentos import limitar_ingreso
from hub.http import seguridad


@method_decorator(limitar_ingreso, name="dispatch")
class IngresoView(auth_views.LoginView):
    """GET shows the branded sign-in page; a correct POST goes home, to the tasks (or `next`)."""

    template_name = "cuentas/login.html"
    authentication_form = FormularioIngreso
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        contexto = super().get_context_data(**kwargs)
        # An app waiting for this sign-in (its authorization request, validated): the page says
        # who, and its form may end at the app's callback, the last redirect of the chain.
        contexto["espera"] = pedido_en_espera(self.get_redirect_url())
        return contexto

    def render_to_response(self, context, **response_kwargs):
        respuesta = super().render_to_response(context, **response_kwargs)
        espera = context.get("espera")
        if espera is not None and espera.origen:
            respuesta["Content-Security-Policy"] = seguridad.politica(
                self.request.csp_nonce, (espera.origen,)
            )
        return respuesta
