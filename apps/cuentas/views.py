"""Branded sign-in, sign-out and password reset of the staff (the brand comes from base.html)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_http_methods

from apps.cuentas import bloqueos, dispositivos
from apps.cuentas.correo import tras_responder
from apps.cuentas.formularios import (
    FormularioCambioContrasena,
    FormularioNuevaContrasena,
    FormularioOlvido,
)
from apps.cuentas.intentos import (
    MAX_USUARIO,
    limitar_cambio_clave,
    limitar_olvido,
)
from apps.cuentas.sesiones import cerrar_otras_sesiones
from apps.marca import selectors

MENSAJE_SALIDA = "Cerró su sesión. Para volver a ingresar, escriba su usuario y su contraseña."


class SalidaView(auth_views.LogoutView):
    """POST only: ends the session and says so on the sign-in page."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        estaba_dentro = request.user.is_authenticated
        respuesta = super().post(request, *args, **kwargs)
        if estaba_dentro:
            messages.success(request, MENSAJE_SALIDA)
        return respuesta


@method_decorator(limitar_olvido, name="dispatch")
@method_decorator(tras_responder, name="dispatch")
class OlvidoView(auth_views.PasswordResetView):
    """Ask for a reset link; the e-mail leaves through the configured backend after the answer,
    and an unknown address takes the same steps (FormularioOlvido.save)."""

    template_name = "cuentas/clave_olvido.html"
    form_class = FormularioOlvido
    email_template_name = "cuentas/correo_clave.txt"
    subject_template_name = "cuentas/correo_clave_asunto.txt"
    success_url = reverse_lazy("cuentas:clave_enviada")

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **_vigencia_enlace()}

    def form_valid(self, form):
        self.extra_email_context = {
            "nombre_marca": selectors.marca_publica().datos["nombre"],
            **_vigencia_enlace(),
        }
        return super().form_valid(form)


def _vigencia_enlace() -> dict[str, int]:
    return {"horas_enlace": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)}


class EnviadoView(auth_views.PasswordResetDoneView):
    template_name = "cuentas/clave_enviada.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **_vigencia_enlace()}


class NuevaContrasenaView(auth_views.PasswordResetConfirmView):
    """The link of the e-mail: choose a new password (the link works once)."""

    template_name = "cuentas/clave_nueva.html"
    form_class = FormularioNuevaContrasena
    success_url = reverse_lazy("cuentas:clave_lista")


class ListaView(auth_views.PasswordResetCompleteView):
    template_name = "cuentas/clave_lista.html"


# The link is in the path: no cache keeps the page, and no other site gets it as a Referer.
# (same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` with the
# button's POST, which Django's CSRF check refuses.)
_SIN_RASTRO = {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
_ESTADOS = {bloqueos.VIGENTE: 200, bloqueos.USADO: 410, bloqueos.VENCIDO: 410}


@require_http_methods(["GET", "POST"])
def desbloquear(request: HttpRequest, secreto: str) -> HttpResponse:
    """The lock e-mail's link: GET shows the page and changes nothing (mail scanners open links);
    its button's POST marks this browser as known to the account, once."""
    if request.method == "POST" and (bloqueo := bloqueos.desbloquear(secreto=secreto)):
        respuesta = TemplateResponse(
            request,
            "cuentas/desbloqueo.html",
            {"estado": "hecho", "bloqueo": bloqueo},
            headers=_SIN_RASTRO,
        )
        nombre = bloqueo.usuario.get_username().strip().casefold()[:MAX_USUARIO]
        dispositivos.emitir(respuesta, cuenta=nombre)
        return respuesta
    actual = bloqueos.enlace(secreto)
    estado, bloqueo = actual if actual is not None else (None, None)
    return TemplateResponse(
        request,
        "cuentas/desbloqueo.html",
        {"estado": estado, "bloqueo": bloqueo},
        status=_ESTADOS.get(estado, 404),
        headers=_SIN_RASTRO,
    )


MENSAJE_CAMBIO = (
    "Su contraseña cambió. Esta sesión sigue abierta; las demás sesiones abiertas con su usuario "
    "se cerraron y le pedirán la contraseña nueva."
)


@method_decorator(login_required, name="dispatch")
@method_decorator(limitar_cambio_clave, name="dispatch")
class CambioContrasenaView(auth_views.PasswordChangeView):
    """The person changes their password: a wrong current one counts as a failed sign-in, and
    every other session of theirs ends (Django keeps this one: update_session_auth_hash)."""

    template_name = "cuentas/clave_cambio.html"
    form_class = FormularioCambioContrasena
    success_url = reverse_lazy("cuentas:perfil")

    def form_valid(self, form):
        respuesta = super().form_valid(form)
        cerrar_otras_sesiones(usuario=form.user, conservar=self.request.session.session_key)
        messages.success(self.request, MENSAJE_CAMBIO)
        return respuesta

    def form_invalid(self, form):
        if form.has_error("old_password", "password_incorrect"):
            user_login_failed.send(
                sender=__name__,
                credentials={"username": self.request.user.get_username()},
                request=self.request,
            )
        return super().form_invalid(form)
