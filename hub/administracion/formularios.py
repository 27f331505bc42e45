"""Form fields the admin screens share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError


class CampoLineas(forms.CharField):
    """A list edited as text, one item per line; blank lines are dropped, and a refused line is
    named by its number."""

    widget = forms.Textarea(attrs={"rows": 5, "cols": 80})

    def convertir(self, linea: str) -> str:
        """One line as stored; raise ValidationError to refuse it."""
        return linea.strip()

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "\n".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        texto = super().to_python(value) or ""
        elementos, errores = [], []
        for numero, linea in enumerate(texto.splitlines(), start=1):
            if not linea.strip():
                continue
            try:
                elementos.append(self.convertir(linea))
            except ValidationError as exc:
                errores.append(f"Línea {numero}: {exc.messages[0]}")
        if errores:
            raise ValidationError(errores)
        return elementos


# A lifetime as people say it; stored in seconds.
UNIDADES_DURACION = (("minutos", 60), ("horas", 3600), ("dias", 86400))
NOMBRES_UNIDAD = {
    "minutos": ("minuto", "minutos"),
    "horas": ("hora", "horas"),
    "dias": ("día", "días"),
}


def describir_duracion(segundos: int) -> str:
    """'5 minutos', '1 hora', '24 horas', '30 días': the largest unit that divides it exactly."""
    for unidad, factor in reversed(UNIDADES_DURACION):
        if segundos % factor == 0:
            cantidad = segundos // factor
            singular, plural = NOMBRES_UNIDAD[unidad]
            return f"{cantidad} {singular if cantidad == 1 else plural}"
    return f"{segundos} segundos"


class WidgetDuracion(forms.MultiWidget):
    """A number and its unit side by side."""

    def __init__(self, attrs=None):
        opciones = [(u, NOMBRES_UNIDAD[u][1]) for u, _ in UNIDADES_DURACION]
        super().__init__(
            [
                forms.NumberInput(attrs={"step": "any", "min": "0", "class": "vDuracion"}),
                forms.Select(choices=opciones, attrs={"aria-label": "Unidad"}),
            ],
            attrs,
        )

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_0" if id_ else id_  # the label names the number

    def decompress(self, value: Any) -> list[Any]:
        if value in (None, ""):
            return [None, "minutos"]
        segundos = int(value)
        for unidad, factor in reversed(UNIDADES_DURACION):
            if segundos % factor == 0:
                return [segundos // factor, unidad]
        return [round(segundos / 60, 2), "minutos"]


class CampoDuracion(forms.MultiValueField):
    """A lifetime in minutes, hours or days, cleaned to the seconds the model stores, within
    [minimo, maximo] seconds (said back in words when out of range)."""

    widget = WidgetDuracion

    def __init__(self, *, minimo: int, maximo: int, **kwargs):
        self.minimo, self.maximo = minimo, maximo
        campos = (
            forms.DecimalField(min_value=0, max_digits=9, decimal_places=2),
            forms.ChoiceField(choices=[(u, u) for u, _ in UNIDADES_DURACION]),
        )
        super().__init__(campos, require_all_fields=True, **kwargs)
        for clave in ("incomplete", "required"):
            self.error_messages[clave] = "Escriba un número y elija la unidad."

    def compress(self, data_list: list[Any]) -> int | None:
        if not data_list:
            return None
        numero, unidad = data_list
        segundos = round(numero * dict(UNIDADES_DURACION)[unidad])
        if not self.minimo <= segundos <= self.maximo:
            raise ValidationError(
                f"Escriba entre {describir_duracion(self.minimo)} y "
                f"{describir_duracion(self.maximo)}.",
                code="fuera_de_rango",
            )
        return segundos
