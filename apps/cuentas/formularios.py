"""Forms of sign-in and password reset, in Spanish and with one refusal text for every cause."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm
from django.utils import timezone

from apps.marca import selectors


def texto_rechazo() -> str:
    """The one answer to a refused sign-in, whatever the cause (wrong password, blocked account,
    no staff access): it never tells whether the password was right, and says whom to ask."""
    datos = selectors.marca_publica().datos
    # The published address, if any, follows the text as a link (templates: correo_contacto).
    quien = f"la mesa de ayuda de {datos['nombre_entidad'] or datos['nombre']}"
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
        clave: forms.Field = self.fields["password"]
        usuario.label = "Usuario"
        usuario.error_messages["required"] = "Escriba su usuario."
        clave.label = "Contraseña"
        clave.error_messages["required"] = "Escriba su contraseña."


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


class FormularioNuevaClave(SetPasswordForm):
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


OTRA_FECHA = "fecha"


class FormularioToken(forms.Form):
    """A new personal token: a name, and one of the offered periods or a date of its own."""

    nombre = forms.CharField(
        label="Nombre del token",
        max_length=100,
        help_text="Para reconocerlo después, p. ej. «Portátil» o «Asistente de escritorio».",
    )
    dias = forms.ChoiceField(label="Vigencia")
    fecha = forms.DateField(
        label="Vence el",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
        error_messages={"invalid": "Escriba la fecha como AAAA-MM-DD."},
    )

    def __init__(self, *args, vigencias: list[int], maximo: int, **kwargs):
        super().__init__(*args, **kwargs)
        campo: forms.ChoiceField = self.fields["dias"]
        campo.choices = [(str(d), f"{d} días") for d in vigencias] + [(OTRA_FECHA, "Otra fecha…")]
        campo.initial = "30" if 30 in vigencias else str(vigencias[-1])
        campo.error_messages["invalid_choice"] = "Elija una de las vigencias ofrecidas."
        hoy = timezone.localdate()
        self.fields["fecha"].widget.attrs.update(
            min=(hoy + timedelta(days=1)).isoformat(),
            max=timezone.localdate(timezone.now() + timedelta(days=maximo)).isoformat(),
        )
        self.fields["fecha"].help_text = f"Hasta {maximo} días desde hoy."

    def clean(self) -> dict:
        datos = super().clean()
        if (
            datos.get("dias") == OTRA_FECHA
            and not datos.get("fecha")
            and "fecha" not in self.errors
        ):
            self.add_error("fecha", "Elija la fecha de vencimiento.")
        return datos

    def vigencia(self) -> dict:
        """The service's arguments: {"dias": n} or {"hasta": date}."""
        if self.cleaned_data["dias"] == OTRA_FECHA:
            return {"hasta": self.cleaned_data["fecha"]}
        return {"dias": int(self.cleaned_data["dias"])}
