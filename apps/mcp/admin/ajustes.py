"""The assistant settings: one form, tools as checkboxes, origins one per line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from apps.mcp.models import AjustesAsistente, normalizar_origen
from apps.mcp.registro import registro
from hub.formularios import CampoLineas
from hub.sitio_admin import AdminUnico

ACCESO = (
    "escrituras_habilitadas",
    "aprobar_en_el_hub",
    "herramientas_publicas",
    "permitir_token_solo",
    "token_max_dias",
    "confirmacion_segundos",
    "origenes_permitidos",
)
OAUTH = (
    "oauth_habilitado",
    "oauth_solo_verificadas",
    "oauth_registro_abierto",
    "oauth_cimd_habilitado",
    "oauth_cimd_dominios",
    "oauth_acceso_segundos",
    "oauth_refresco_dias",
)
LIMITES = (
    "integracion_por_minuto",
    "usuario_por_minuto",
    "escrituras_por_minuto",
    "verificaciones_fallidas_por_hora",
)


def opciones_publicas() -> list[tuple[str, str]]:
    """Tools that may run with the API key alone (public or verified access)."""
    return [
        (h.nombre, f"{h.titulo} ({h.nombre})")
        for h in sorted(registro, key=lambda h: h.nombre)
        if registro.puede_ser_publica(h.nombre)
    ]


class CampoOrigenes(CampoLineas):
    """Origins written one per line; each checked and written as browsers send it, once."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 60, "spellcheck": "false"})

    def convertir(self, linea: str) -> str:
        return normalizar_origen(linea)

    def to_python(self, value: Any) -> list[str]:
        return list(dict.fromkeys(super().to_python(value)))


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
    oauth_cimd_dominios = CampoLineas(
        label="Dominios permitidos para CIMD",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60, "spellcheck": "false"}),
        help_text="Vacío: se aceptan documentos de cualquier dominio público. Para limitarlos, "
        "uno por línea, p. ej. claude.ai, o .openai.com para todos sus subdominios.",
    )

    class Meta:
        model = AjustesAsistente
        fields = ACCESO + OAUTH + LIMITES

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["herramientas_publicas"].choices = opciones_publicas()


@admin.register(AjustesAsistente)
class AjustesAsistenteAdmin(AdminUnico):
    form = AjustesAsistenteForm
    fieldsets = (
        ("Acceso", {"fields": ACCESO}),
        ("Conexiones OAuth (iniciar sesión desde el asistente)", {"fields": OAUTH}),
        ("Límites", {"fields": LIMITES}),
    )
