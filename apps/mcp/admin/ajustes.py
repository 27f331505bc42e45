"""The assistant settings: one form, tools as checkboxes, origins one per line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from apps.mcp.models import AjustesAsistente, normalizar_origen
from apps.mcp.registro import registro
from hub.sitio_admin import AdminUnico


def opciones_publicas() -> list[tuple[str, str]]:
    """Tools that may run with the API key alone (public or verified access)."""
    return [
        (h.nombre, f"{h.titulo} ({h.nombre})")
        for h in sorted(registro, key=lambda h: h.nombre)
        if registro.puede_ser_publica(h.nombre)
    ]


class CampoOrigenes(forms.CharField):
    """Origins written one per line; each checked and written as browsers send it."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 60, "spellcheck": "false"})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "\n".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        texto = super().to_python(value) or ""
        origenes, errores = [], []
        for numero, linea in enumerate(texto.splitlines(), start=1):
            if not linea.strip():
                continue
            try:
                origenes.append(normalizar_origen(linea))
            except ValidationError as exc:
                errores.append(f"Línea {numero}: {exc.messages[0]}")
        if errores:
            raise ValidationError(errores)
        return list(dict.fromkeys(origenes))


class AjustesAsistenteForm(forms.ModelForm):
    herramientas_publicas = forms.MultipleChoiceField(
        label="Herramientas públicas",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=(
            "Las que una integración puede usar solo con la clave de API, sin token personal. "
            "Solo aparecen las de acceso público o verificado."
        ),
    )
    origenes_permitidos = CampoOrigenes(
        label="Orígenes permitidos",
        required=False,
        help_text=(
            "Uno por línea, p. ej. https://asistente.entidad.gov.co. Son los sitios cuyos "
            "navegadores pueden llamar al asistente, además del propio hub; las peticiones sin "
            "cabecera Origin (programas, clientes de escritorio) se aceptan siempre."
        ),
    )

    class Meta:
        model = AjustesAsistente
        fields = (
            "escrituras_habilitadas",
            "herramientas_publicas",
            "permitir_token_solo",
            "token_max_dias",
            "confirmacion_segundos",
            "origenes_permitidos",
            "integracion_por_minuto",
            "usuario_por_minuto",
            "escrituras_por_minuto",
            "verificaciones_fallidas_por_hora",
        )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["herramientas_publicas"].choices = opciones_publicas()


@admin.register(AjustesAsistente)
class AjustesAsistenteAdmin(AdminUnico):
    form = AjustesAsistenteForm
    fieldsets = (
        (
            "Acceso",
            {
                "fields": (
                    "escrituras_habilitadas",
                    "herramientas_publicas",
                    "permitir_token_solo",
                    "token_max_dias",
                    "confirmacion_segundos",
                    "origenes_permitidos",
                )
            },
        ),
        (
            "Límites",
            {
                "fields": (
                    "integracion_por_minuto",
                    "usuario_por_minuto",
                    "escrituras_por_minuto",
                    "verificaciones_fallidas_por_hora",
                )
            },
        ),
    )
