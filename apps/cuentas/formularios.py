"""Forms of sign-in and password reset, in Spanish and with one refusal text for every cause."""

from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
)
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.contrib.sites.shortcuts import get_current_site
from django.core.mail import EmailMultiAlternatives
from django.http import HttpRequest
from django.template import loader
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from apps.cuentas import correo as capa_correo
from apps.marca import selectors


def texto_rechazo() -> str:
    """The one answer to a refused sign-in, whatever the cause (wrong password, blocked account,
    no staff access): it never tells whether the password was right, and says whom to ask."""
    # The staff's help desk (never the citizens' address): its e-mail, if the brand sets one,
    # follows the text as a link (templates: cuentas/_correo_contacto.html).
    quien = f"la mesa de ayuda {selectors.marca_publica().personal['de_entidad']}"
    return (
        "No fue posible ingresar con esos datos. Revise su usuario y su contraseña; si los "
        "olvidó, use «¿Olvidó su contraseña?». Si su cuenta está bloqueada, comuníquese con "
        f"{quien}."
    )


class _IngresoEnEspanol:
    """Spanish labels and messages shared by the staff and the admin sign-in forms."""

    def _en_espanol(self) -> None:
        # Django formats these with %-params: a "%" in the brand's name must stay a "%".
        rechazo = texto_rechazo().replace("%", "%%")
        self.error_messages = {**self.error_messages, "invalid_login": rechazo, "inactive": rechazo}
        usuario: forms.Field = self.fields["username"]
        contrasena: forms.Field = self.fields["password"]
        usuario.label = "Usuario"
        usuario.error_messages["required"] = "Escriba su usuario."
        contrasena.label = "Contraseña"
        contrasena.error_messages["required"] = "Escriba su contraseña."


class FormularioIngreso(_IngresoEnEspanol, AuthenticationForm):
    """Django's sign-in form for the staff pages."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self._en_espanol()


class FormularioIngresoAdmin(_IngresoEnEspanol, AdminAuthenticationForm):
    """The admin's sign-in form (staff only), with the same words."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self._en_espanol()


class FormularioOlvido(PasswordResetForm):
    """Ask for a reset link by e-mail; the answer is the same whether the address exists or not."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        correo: forms.Field = self.fields["email"]
        correo.label = "Correo electrónico institucional"
        correo.error_messages["required"] = "Escriba su correo electrónico."
        correo.error_messages["invalid"] = "Escriba un correo electrónico válido."

    def save(
        self,
        domain_override: str | None = None,
        subject_template_name: str = "registration/password_reset_subject.txt",
        email_template_name: str = "registration/password_reset_email.html",
        use_https: bool = False,
        token_generator: PasswordResetTokenGenerator = default_token_generator,
        from_email: str | None = None,
        request: HttpRequest | None = None,
        html_email_template_name: str | None = None,
        extra_email_context: dict | None = None,
    ) -> None:
        """One message per active account of the address, or one for nobody: the same steps.

        Django's form does nothing for an unknown address, and the answer's time told registered
        addresses apart (issue 23 item 4). Here an address without an account still signs a token,
        renders the message for a stand-in account and hands it to the mail layer addressed to
        nobody; every message leaves after the answer (apps.cuentas.correo).
        """
        usuarios = get_user_model()
        campo = usuarios.get_email_field_name()
        direccion = self.cleaned_data["email"]
        if domain_override:
            sitio = dominio = domain_override
        else:
            actual = get_current_site(request)
            sitio, dominio = actual.name, actual.domain
        destinos = [(u, getattr(u, campo)) for u in self.get_users(direccion)]
        # The stand-in is never saved and its message has no recipient: the mail layer drops it.
        for usuario, destino in destinos or [(usuarios(**{campo: direccion}), None)]:
            contexto = {
                "email": destino or direccion,
                "domain": dominio,
                "site_name": sitio,
                "uid": urlsafe_base64_encode(
                    force_bytes(usuarios._meta.pk.value_to_string(usuario))
                ),
                "user": usuario,
                "token": token_generator.make_token(usuario),
                "protocol": "https" if use_https else "http",
                **(extra_email_context or {}),
            }
            mensaje = self._mensaje(
                subject_template_name, email_template_name, html_email_template_name, contexto
            )
            mensaje.from_email = from_email or mensaje.from_email
            mensaje.to = [destino] if destino else []
            if request is None:
                mensaje.send()
            else:
                capa_correo.encolar(request, mensaje)

    @staticmethod
    def _mensaje(
        asunto: str, cuerpo: str, html: str | None, contexto: dict
    ) -> EmailMultiAlternatives:
        """The rendered message, without recipients yet (as Django's send_mail renders it)."""
        # A subject must not contain newlines.
        titulo = "".join(loader.render_to_string(asunto, contexto).splitlines())
        mensaje = EmailMultiAlternatives(titulo, loader.render_to_string(cuerpo, contexto))
        if html is not None:
            mensaje.attach_alternative(loader.render_to_string(html, contexto), "text/html")
        return mensaje


class FormularioNuevaContrasena(SetPasswordForm):
    """Choose a new password (twice), checked by the configured password validators."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].label = "Contraseña nueva"
        self.fields["new_password2"].label = "Repita la contraseña nueva"
        self.fields["new_password2"].help_text = ""
        self.error_messages = {
            **self.error_messages,
            "password_mismatch": "Las dos contraseñas no coinciden.",
        }


class FormularioCambioContrasena(PasswordChangeForm, FormularioNuevaContrasena):
    """Change one's password: the current one first, then the new one twice."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        actual = self.fields["old_password"]
        actual.label = "Contraseña actual"
        actual.error_messages["required"] = "Escriba su contraseña actual."
        self.error_messages = {
            **self.error_messages,
            "password_incorrect": "La contraseña actual no es correcta. Escríbala de nuevo.",
        }
