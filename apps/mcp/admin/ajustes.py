"""The assistant settings: one form, tools as checkboxes, origins one per line, grouped and said
in plain Spanish (the technical names stay in the help texts), lifetimes in minutes, hours or
days."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from apps.mcp.models import AjustesAsistente, normalizar_origen
from hub.administracion.formularios import CampoDuracion, CampoLineas
from hub.administracion.sitio import AdminUnico
from hub.herramientas.registro import registro

CAMBIOS = ("escrituras_habilitadas", "aprobar_en_el_hub", "confirmacion_segundos")
ACCESO = (
    "herramientas_publicas",
    "permitir_token_solo",
    "token_max_dias",
    "origenes_permitidos",
)
OAUTH = (
    "oauth_habilitado",
    "oauth_solo_verificadas",
    "oauth_registro_abierto",
    "oauth_cimd_habilitado",
    "oauth_cimd_dominios",
)
VIGENCIAS = ("oauth_acceso_segundos", "oauth_refresco_dias")
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


# What an administrator who is not an engineer reads: (label, help text or None to keep it).
TEXTOS: dict[str, tuple[str, str | None]] = {
    "escrituras_habilitadas": (
        "Permitir que el asistente haga cambios",
        "Radicar, comentar o mover solicitudes, siempre con la confirmación de la persona. "
        "Apagado, el asistente solo consulta (las herramientas que escriben responden "
        "ESCRITURA_DESHABILITADA).",
    ),
    "permitir_token_solo": (
        "Aceptar el token personal sin la clave de la integración",
        "Encendido, a la persona le basta su token personal. Apagado, el token debe llegar junto "
        "con una clave de API (cabeceras X-MCP-User-Token y X-API-Key).",
    ),
    "token_max_dias": (
        "Duración máxima de un token personal (días)",
        "Lo más que una persona puede elegir al crear su token en su perfil (de 1 a 366).",
    ),
    "oauth_habilitado": (
        "Permitir iniciar sesión desde el asistente",
        "La persona conecta su asistente con su usuario y contraseña del hub (OAuth 2.1). "
        "Apagado, ninguna aplicación obtiene acceso y las ya conectadas dejan de funcionar.",
    ),
    "oauth_solo_verificadas": (
        "Solo aplicaciones verificadas",
        "Solo se conectan las aplicaciones que un administrador marcó como verificadas.",
    ),
    "oauth_registro_abierto": (
        "Las aplicaciones se dan de alta solas",
        "Un asistente nuevo se registra la primera vez que alguien lo conecta (registro "
        "dinámico de clientes, RFC 7591). Apagado, solo se conectan las que agrega un "
        "administrador en «Aplicaciones».",
    ),
    "oauth_cimd_habilitado": (
        "Aceptar aplicaciones que se identifican con una dirección web",
        None,
    ),
    "oauth_cimd_dominios": ("Dominios de esas aplicaciones", None),
    "integracion_por_minuto": (
        "Consultas por minuto de una integración sin usuario",
        "Por clave de API; pasado el límite se responde «demasiadas solicitudes».",
    ),
    "usuario_por_minuto": ("Consultas por minuto de cada persona", None),
    "escrituras_por_minuto": ("Cambios confirmados por minuto de cada persona", None),
    "verificaciones_fallidas_por_hora": (
        "Consultas fallidas de estado por hora",
        "Consultas de estado_solicitud sin usuario que no encuentran la solicitud, por "
        "integración y dirección: frena a quien adivina números.",
    ),
}
# Help texts that name a technical term another screen or document may use: kept, completed.
CIMD = " (Técnicamente: documentos de metadatos de cliente, CIMD.)"


class AjustesAsistenteForm(forms.ModelForm):
    confirmacion_segundos = CampoDuracion(
        minimo=30,
        maximo=3600,
        label="Tiempo para confirmar un cambio",
        help_text=(
            "Cuánto espera el asistente a que la persona confirme un cambio antes de pedirlo de "
            "nuevo (el token de confirmación; de 30 segundos a 1 hora)."
        ),
    )
    oauth_acceso_segundos = CampoDuracion(
        minimo=300,
        maximo=86400,
        label="Cada cuánto el asistente renueva su acceso",
        help_text=(
            "Vigencia del token de acceso OAuth: al vencer, el asistente lo renueva solo con el "
            "de refresco, sin molestar a la persona (de 5 minutos a 24 horas)."
        ),
    )
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
        fields = CAMBIOS + ACCESO + OAUTH + VIGENCIAS + LIMITES

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["herramientas_publicas"].choices = opciones_publicas()
        for nombre, (etiqueta, ayuda) in TEXTOS.items():
            self.fields[nombre].label = etiqueta
            if ayuda is not None:
                self.fields[nombre].help_text = ayuda
        cimd = self.fields["oauth_cimd_habilitado"]
        if "CIMD" not in str(cimd.help_text):
            cimd.help_text = f"{cimd.help_text}{CIMD}"
        self.fields["oauth_refresco_dias"].label = "Cuánto dura una conexión sin usarse (días)"


@admin.register(AjustesAsistente)
class AjustesAsistenteAdmin(AdminUnico):
    form = AjustesAsistenteForm
    fieldsets = (
        (
            "Cambios que hace el asistente",
            {
                "fields": CAMBIOS,
                "description": "Si el asistente puede cambiar datos a nombre de una persona.",
            },
        ),
        (
            "Quién puede usar el asistente",
            {
                "fields": ACCESO,
                "description": "Qué se consulta sin usuario, los tokens personales y los sitios "
                "web desde los que se llama al asistente.",
            },
        ),
        (
            "Iniciar sesión desde el asistente",
            {
                "fields": OAUTH,
                "description": "Cómo se conectan los asistentes (ChatGPT, Claude y otros) con "
                "el usuario y la contraseña de cada persona.",
            },
        ),
        (
            "Duración de las conexiones",
            {
                "fields": VIGENCIAS,
                "description": "Una conexión que se usa se mantiene; una que se deja de usar "
                "vence y la persona vuelve a iniciar sesión.",
            },
        ),
        (
            "Límites de uso",
            {
                "fields": LIMITES,
                "description": "Frenan el abuso; una persona normal no llega a ellos.",
            },
        ),
    )
