"""Electronic signatures of any document that offers `resumen_firma()`, verified by QR code."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

# Never issued by uuid4 (version bits differ): malformed tokens are looked up as this value, so
# an unknown and a malformed code cost the same work and get the same answer.
TOKEN_IMPOSIBLE = uuid.UUID(int=0)


class FirmaQuerySet(models.QuerySet):
    def de(self, documento: models.Model) -> FirmaQuerySet:
        """The signatures of one document (a movement is a document of its own)."""
        tipo = ContentType.objects.get_for_model(documento)
        return self.filter(content_type=tipo, object_id=documento.pk)

    def vigentes(self) -> FirmaQuerySet:
        """Signatures that were not annulled."""
        return self.filter(anulada=False)


class Firma(models.Model):
    """Who signed which document, with which role and when; annulled, never deleted."""

    token = models.UUIDField(
        "código de verificación", default=uuid.uuid4, unique=True, editable=False
    )
    content_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, verbose_name="tipo de documento"
    )
    object_id = models.PositiveBigIntegerField("id del documento")
    documento = GenericForeignKey("content_type", "object_id")
    firmante = models.CharField(max_length=200)
    rol = models.CharField(max_length=150)
    usuario = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="firmas",
        help_text="Cuenta con la que se firmó; nunca se publica.",
    )
    firmado_en = models.DateTimeField(default=timezone.now)
    # Evidence kept for the record only: no view, API or admin page ever serves it.
    imagen = models.ImageField(
        "imagen de la firma", upload_to="firmas/%Y/%m/", blank=True, editable=False
    )
    anulada = models.BooleanField(default=False)
    anulada_en = models.DateTimeField(null=True, blank=True)
    motivo_anulacion = models.TextField("motivo de la anulación", blank=True)
    motivo_publico = models.BooleanField(
        "motivo publicable",
        default=False,
        help_text="Quien anuló declaró que el motivo no tiene datos personales: la verificación "
        "pública lo muestra.",
    )

    objects = FirmaQuerySet.as_manager()

    class Meta:
        ordering = ["-firmado_en", "-id"]
        verbose_name = "firma"
        verbose_name_plural = "firmas"
        indexes = [
            # Serves both "signatures of this document" and the count of the current ones.
            models.Index(fields=["content_type", "object_id", "anulada"], name="firmas_documento"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(token=TOKEN_IMPOSIBLE), name="firmas_token_no_nulo"
            ),
            models.CheckConstraint(
                condition=Q(anulada=False) | Q(anulada_en__isnull=False),
                name="firmas_anulada_con_fecha",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.firmante} ({self.rol}) · {str(self.token)[:8]}"

    @property
    def valida(self) -> bool:
        return not self.anulada

    def ruta_verificacion(self) -> str:
        """Path of the human verification page (what the QR code opens)."""
        return reverse("firmas:pagina_verificacion", kwargs={"token": str(self.token)})

    def url_verificacion(self) -> str:
        """Absolute address printed in the QR code."""
        return settings.HUB_URL_PUBLICA + self.ruta_verificacion()
