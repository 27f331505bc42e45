"""Spanish grammar of the models' names: gender and number, so the admin's messages agree.

Django's Spanish admin says "El {name} …" whatever the noun ("El marca … se cambió"). Each model
shown in the admin declares here whether its name is feminine and whether the name of one object
is already plural ("los ajustes del asistente"); a test keeps this list complete.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Model
from django.db.models.options import Options
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst

FEMENINOS = frozenset(
    {
        "autorizacion.aplicacion",
        "cuentas.area",
        "firmas.firma",
        "marca.imagenmarca",
        "marca.marca",
        "mcp.claveapi",
        "mcp.confirmacionusada",
        "presupuesto.actividad",
        "presupuesto.asignacion",
        "presupuesto.lineapaa",
        "presupuesto.vigencia",
        "solicitudes.etapa",
        "solicitudes.solicitud",
        "solicitudes.tarea",
    }
)
MASCULINOS = frozenset(
    {
        "auth.group",
        "autorizacion.anfitrionreconocido",
        "autorizacion.codigoautorizacion",
        "autorizacion.tokenacceso",
        "autorizacion.tokenrefresco",
        "calidad.documento",
        "calidad.proceso",
        "cuentas.bloqueoingreso",
        "cuentas.user",
        "hub.limites",
        "mcp.ajustesasistente",
        "mcp.rechazoasistente",
        "mcp.registroauditoria",
        "mcp.tokenpersonal",
        "notificaciones.mensajecontacto",
        "notificaciones.sitiocontacto",
        "presupuesto.cdp",
        "presupuesto.movimientocdp",
        "presupuesto.movimientorp",
        "presupuesto.proyecto",
        "presupuesto.rp",
        "solicitudes.campoformulario",
        "solicitudes.comentario",
        "solicitudes.consecutivo",
        "solicitudes.evento",
        "solicitudes.tiposolicitud",
    }
)
# One object whose name is plural in form: "Los ajustes del asistente se guardaron".
SOLO_PLURAL = frozenset({"hub.limites", "mcp.ajustesasistente"})


@dataclass(frozen=True)
class Nombre:
    """A model's name with what Spanish needs to agree with it."""

    texto: str
    femenino: bool
    plural: bool

    def _forma(self, masculino: str, femenino: str) -> str:
        base = femenino if self.femenino else masculino
        return base + "s" if self.plural else base

    @property
    def con_articulo(self) -> str:
        """'la marca', 'el token personal', 'los ajustes del asistente', 'el área'."""
        if self.plural:
            articulo = "las" if self.femenino else "los"
        elif self.femenino and not self.texto.startswith("á"):
            articulo = "la"
        else:
            articulo = "el"  # also before a stressed á: "el área", though feminine
        return f"{articulo} {self.texto}"

    @property
    def pronombre(self) -> str:
        """'lo', 'la', 'los' or 'las' (as in 'editarla')."""
        return self._forma("lo", "la")

    def verbo(self, singular: str, plural: str) -> str:
        return plural if self.plural else singular


def nombre(opts: Options) -> Nombre:
    """The grammatical name of a model from its `_meta`."""
    return Nombre(
        texto=str(opts.verbose_name),
        femenino=opts.label_lower in FEMENINOS,
        plural=opts.label_lower in SOLO_PLURAL,
    )


ACCIONES = {
    "agregar": ("se agregó", "se agregaron"),
    "cambiar": ("se guardó", "se guardaron"),
    "eliminar": ("se eliminó", "se eliminaron"),
}


def mensaje_guardado(
    opts: Options,
    accion: str,
    objeto: Model | str,
    *,
    enlace: str | None = None,
    seguir: bool = False,
    otro: bool = False,
) -> SafeString:
    """'La clave de API «Chat» se agregó correctamente. Puede seguir editándola abajo.'"""
    sustantivo = nombre(opts)
    texto = str(objeto)
    verbo = sustantivo.verbo(*ACCIONES[accion])
    if texto.casefold() == sustantivo.texto.casefold():  # a singleton: no repeated name
        mensaje = format_html("{} {} correctamente.", capfirst(sustantivo.con_articulo), verbo)
    else:
        citado = format_html('<a href="{}">{}</a>', enlace, texto) if enlace else texto
        mensaje = format_html(
            "{} «{}» {} correctamente.", capfirst(sustantivo.con_articulo), citado, verbo
        )
    if seguir:
        mensaje += format_html(" Puede seguir editándo{} abajo.", sustantivo.pronombre)
    elif otro and not sustantivo.plural:
        otra = "otra" if sustantivo.femenino else "otro"
        mensaje += format_html(" Puede agregar {} {} a continuación.", otra, sustantivo.texto)
    return mensaje


# Nouns that open an organization's name and take "la" though they do not end as feminines do.
_FEMENINOS_ENTIDAD = frozenset({"red", "sede", "agencia", "unidad", "superintendencia"})
_MASCULINOS_EN_A = frozenset({"sistema", "programa", "día"})
_CONTRACCION = {"el": "del", "la": "de la", "los": "de los", "las": "de las", "-": "de"}


def articulo_de(nombre: str) -> str:
    """The article an organization's name takes ('el', 'la', 'los', 'las', or '-' for none),
    guessed from its first word: "Instituto…" el, "Secretaría…" la, "IDGP" none."""
    palabras = nombre.split()
    if not palabras or palabras[0].isupper() or not palabras[0][0].isalpha():
        return "-"  # an acronym or a number: no article ("de IDGP")
    base = palabras[0].casefold()
    plural = base.endswith("s") and not base.endswith(("és", "ís", "ás", "us", "is"))
    singular = base[:-1] if plural else base
    femenino = singular in _FEMENINOS_ENTIDAD or (
        singular not in _MASCULINOS_EN_A and singular.endswith(("a", "dad", "ción", "sión", "tud"))
    )
    if plural:
        return "las" if femenino else "los"
    return "la" if femenino else "el"


def de_entidad(nombre: str, articulo: str = "") -> str:
    """'del Instituto Distrital…', 'de la Secretaría…', 'de IDGP': `articulo` as the brand sets
    it ("" deduces it, "-" means none)."""
    elegido = articulo or articulo_de(nombre)
    return f"{_CONTRACCION.get(elegido, 'de')} {nombre}"
