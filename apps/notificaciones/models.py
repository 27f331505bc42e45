"""Website contact: the organization's sites that have a contact form, and the messages received."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


def normalizar_origen(origen: str) -> str | None:
    """`scheme://host[:port]` in lower case, or None when it is not a bare web origin."""
    try:
        partes = urlsplit(origen.strip())
        partes.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError:
        return None
    if partes.scheme not in {"http", "https"} or not partes.hostname:
        return None
    if partes.path not in {"", "/"} or partes.query or partes.fragment or "@" in partes.netloc:
        return None
    return f"{partes.scheme}://{partes.netloc}".lower()


def validar_origenes(texto: str) -> None:
    """Every non-empty line must be a bare origin such as https://www.entidad.gov.co."""
    malos = [
        linea for linea in texto.splitlines() if linea.strip() and not normalizar_origen(linea)
    ]
    if malos:
        raise ValidationError(
            "No son orígenes válidos (use https://dominio, sin ruta): %(malos)s",
            params={"malos": ", ".join(malos)},
        )


class SitioContactoQuerySet(models.QuerySet):
    """Reads of the configured sites."""

    def activos(self) -> SitioContactoQuerySet:
        return self.filter(activo=True)


class SitioContacto(models.Model):
    """A website of the organization whose contact form posts to the endpoint (field `sitio`)."""

    codigo = models.SlugField(
        "código",
        max_length=40,
        unique=True,
        help_text="Lo que el formulario del sitio envía en el campo «sitio» (p. ej. portal).",
    )
    nombre = models.CharField(max_length=120)
    activo = models.BooleanField(
        default=True, help_text="Si no está activo, el endpoint rechaza los mensajes de este sitio."
    )
    correo_destino = models.EmailField(
        "correo de destino",
        blank=True,
        help_text="Cada mensaje se reenvía a esta dirección; vacío: solo queda en el admin.",
    )

    origenes = models.TextField(
        "orígenes permitidos",
        blank=True,
        validators=[validar_origenes],
        help_text=(
            "Direcciones (https://dominio) cuyas páginas pueden enviar el formulario desde el "
            "navegador (CORS), una por línea."
        ),
    )

    objects = SitioContactoQuerySet.as_manager()

    class Meta:
        verbose_name = "sitio de contacto"
        verbose_name_plural = "sitios de contacto"
        ordering = ["nombre"]

    def __str__(self) -> str:
        return self.nombre

    def lista_origenes(self) -> set[str]:
        """The normalized allowed origins."""
        return {o for o in map(normalizar_origen, self.origenes.splitlines()) if o}


class MensajeContactoQuerySet(models.QuerySet):
    """Reads of received messages."""

    def recibidos_antes_de(self, fecha: datetime) -> MensajeContactoQuerySet:
        return self.filter(recibido_en__lt=fecha)


class MensajeContacto(models.Model):
    """A message sent through a website's contact form, stored as written (minus invisibles)."""

    referencia = models.CharField(max_length=16, unique=True, editable=False)
    sitio = models.ForeignKey(SitioContacto, on_delete=models.PROTECT, related_name="mensajes")
    nombre = models.CharField(max_length=120)
    correo = models.EmailField(max_length=150)
    asunto = models.CharField(max_length=150)
    mensaje = models.TextField()
    ip = models.GenericIPAddressField("IP")
    user_agent = models.CharField("navegador (user agent)", max_length=300, blank=True)
    recibido_en = models.DateTimeField("recibido", db_index=True)
    correo_enviado_en = models.DateTimeField(
        "reenviado por correo", null=True, blank=True, editable=False
    )
    leido = models.BooleanField("leído", default=False)
    atendido = models.BooleanField(default=False)
    atendido_en = models.DateTimeField(null=True, blank=True)
    atendido_por = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    objects = MensajeContactoQuerySet.as_manager()

    class Meta:
        verbose_name = "mensaje de contacto"
        verbose_name_plural = "mensajes de contacto"
        ordering = ["-recibido_en", "-id"]
        indexes = [models.Index(fields=["sitio", "-recibido_en"], name="notif_msj_sitio_fecha")]

    def __str__(self) -> str:
        return f"{self.referencia} · {self.asunto}"
