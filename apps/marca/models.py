"""The organization's brand (one row) and its three images, stored in the database."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models, transaction

from hub.cache.singleton import ModeloUnico
from hub.cache.versionado import invalidar_versionado

validar_color = RegexValidator(
    r"^#[0-9A-Fa-f]{6}$", "Use un color hexadecimal de la forma #RRGGBB.", code="color"
)

MAX_BULLETS = 8
MAX_LARGO_BULLET = 160


def validar_bullets(valor: Any) -> None:
    """A list of at most 8 non-empty phrases of at most 160 characters."""
    if not isinstance(valor, list):
        raise ValidationError("Debe ser una lista de frases.", code="bullets")
    if len(valor) > MAX_BULLETS:
        raise ValidationError(f"Escriba como máximo {MAX_BULLETS} frases.", code="bullets")
    for i, frase in enumerate(valor, start=1):
        if not isinstance(frase, str) or not frase.strip():
            raise ValidationError(f"La frase {i} está vacía.", code="bullets")
        if len(frase) > MAX_LARGO_BULLET:
            raise ValidationError(
                f"La frase {i} supera {MAX_LARGO_BULLET} caracteres.", code="bullets"
            )


class Modo(models.TextChoices):
    HUB = "hub", "Hub (marca propia del servicio)"
    COMARCA = "comarca", "Marca de la organización con crédito «Con tecnología Hub»"
    MARCA_BLANCA = "marca_blanca", "Marca blanca (solo la marca de la organización)"


def muestra_credito_hub(modo: str) -> bool:
    """The 'powered by' credit is shown for the hub's own brand and for comarca."""
    return modo in (Modo.HUB, Modo.COMARCA)


class Slot(models.TextChoices):
    LOGO = "logo", "Logo"
    ISOTIPO = "isotipo", "Isotipo"
    FAVICON = "favicon", "Favicon"


class TipoImagen(models.TextChoices):
    SVG = "svg", "SVG"
    PNG = "png", "PNG"
    ICO = "ico", "ICO"
    WEBP = "webp", "WebP"


# The article a sentence puts before the organization's name ("" = deduced:
# hub.administracion.gramatica).
ARTICULOS = [("el", "el"), ("la", "la"), ("los", "los"), ("las", "las"), ("-", "sin artículo")]

# The hub's own brand on a fresh install; `es_default` compares against these values.
DEFAULTS: dict[str, Any] = {
    "modo": Modo.HUB.value,
    "nombre": "Hub institucional",
    "tagline": "Las aplicaciones de su organización en un solo lugar",
    "nombre_entidad": "",
    "color_primario": "#1F4E79",
    "color_acento": "#2E9E6B",
    "login_titulo": "Ingrese con su usuario institucional",
    "login_bullets": [
        "Radique y siga sus solicitudes en línea.",
        "Consulte el presupuesto y los documentos de su área.",
        "Verifique firmas electrónicas con el código QR.",
    ],
    "contacto_correo": "",
    "contacto_sitio": "",
    "articulo_entidad": "",
    "mesa_ayuda_correo": "",
}
CAMPOS_CONTENIDO = tuple(DEFAULTS)

CLAVE_PUBLICA = "marca:publica:v2"  # v2: versioned entries (hub.cache.singleton)


def _bullets_por_defecto() -> list[str]:
    return list(DEFAULTS["login_bullets"])


class Marca(ModeloUnico):
    """The visual identity the organization publishes (name, colours, sign-in texts, mode)."""

    modo = models.CharField("modo", max_length=20, choices=Modo.choices, default=DEFAULTS["modo"])
    nombre = models.CharField("nombre visible", max_length=80, default=DEFAULTS["nombre"])
    tagline = models.CharField(
        "frase bajo el nombre", max_length=160, blank=True, default=DEFAULTS["tagline"]
    )
    nombre_entidad = models.CharField(
        "nombre oficial de la entidad", max_length=200, blank=True, default=""
    )
    color_primario = models.CharField(
        "color primario",
        max_length=7,
        default=DEFAULTS["color_primario"],
        validators=[validar_color],
    )
    color_acento = models.CharField(
        "color de acento",
        max_length=7,
        default=DEFAULTS["color_acento"],
        validators=[validar_color],
    )
    login_titulo = models.CharField(
        "título de la pantalla de ingreso", max_length=120, default=DEFAULTS["login_titulo"]
    )
    login_bullets = models.JSONField(
        "frases de la pantalla de ingreso",
        default=_bullets_por_defecto,
        blank=True,
        validators=[validar_bullets],
    )
    contacto_correo = models.EmailField("correo de contacto", blank=True, default="")
    contacto_sitio = models.URLField("sitio web de contacto", blank=True, default="")
    articulo_entidad = models.CharField(
        "artículo del nombre de la entidad",
        max_length=5,
        blank=True,
        default="",
        choices=ARTICULOS,
        help_text=(
            "Cómo se nombra la entidad en una frase: «la mesa de ayuda <b>del</b> Instituto…», "
            "«… <b>de la</b> Secretaría…». Vacío: se deduce de la primera palabra del nombre."
        ),
    )
    mesa_ayuda_correo = models.EmailField(
        "correo de la mesa de ayuda del personal",
        blank=True,
        default="",
        help_text=(
            "A quién escribe el personal que no puede ingresar (cuenta bloqueada, contraseña). "
            "Aparece en el error de ingreso; no es el correo de atención a la ciudadanía ni se "
            "publica en la API de la marca."
        ),
    )
    actualizada = models.DateTimeField("actualizada", auto_now=True)

    class Meta:
        verbose_name = "marca"
        verbose_name_plural = "marca"

    def __str__(self) -> str:
        return self.nombre

    def clean(self) -> None:
        # One spelling of each colour, so the same brand always has the same version.
        for campo in ("color_primario", "color_acento"):
            valor = getattr(self, campo) or ""
            setattr(self, campo, valor.strip().upper())
        if isinstance(self.login_bullets, list):
            self.login_bullets = [
                f.strip() if isinstance(f, str) else f for f in self.login_bullets
            ]

    @property
    def con_tecnologia_hub(self) -> bool:
        """The 'powered by' credit is shown for the hub's own brand and for comarca."""
        return muestra_credito_hub(self.modo)

    @classmethod
    def olvidar(cls) -> None:
        """Drop the cached row and the cached public brand derived from it."""
        super().olvidar()
        olvidar_publica()


def olvidar_publica() -> None:
    """Make the cached public brand (data + version) stale on every host."""
    invalidar_versionado(CLAVE_PUBLICA)


class ImagenMarca(models.Model):
    """One image slot; bytes live in the database so every host serves the same file."""

    slot = models.CharField("espacio", max_length=10, choices=Slot.choices, unique=True)
    tipo = models.CharField("formato", max_length=5, choices=TipoImagen.choices)
    contenido = models.BinaryField("contenido")
    sha256 = models.CharField("SHA-256", max_length=64)
    tamano = models.PositiveIntegerField("tamaño (bytes)")
    actualizada = models.DateTimeField("actualizada", auto_now=True)

    class Meta:
        verbose_name = "imagen de la marca"
        verbose_name_plural = "imágenes de la marca"

    def __str__(self) -> str:
        return f"{self.get_slot_display()} ({self.tipo}, {self.tamano} bytes)"

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        Marca.olvidar()
        transaction.on_commit(Marca.olvidar)

    def delete(self, *args, **kwargs):
        resultado = super().delete(*args, **kwargs)
        Marca.olvidar()
        transaction.on_commit(Marca.olvidar)
        return resultado
