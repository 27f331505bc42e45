"""The profile's form of a new personal token of the assistant, with its areas."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone

from apps.mcp import areas as areas_asistente

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
    areas = forms.MultipleChoiceField(
        label="Áreas a las que llega",
        choices=areas_asistente.opciones(),
        initial=list(areas_asistente.AREAS),
        widget=forms.CheckboxSelectMultiple,
        help_text="El asistente solo podrá usar las herramientas de las áreas marcadas.",
        error_messages={"required": "Elija al menos un área."},
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
