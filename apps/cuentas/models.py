"""People and the organization's areas (dependencias)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone


class Area(models.Model):
    """An organizational unit (dependencia): budget and requests belong to areas."""

    nombre = models.CharField(max_length=150, unique=True)
    sigla = models.CharField("sigla", max_length=20, unique=True)
    activa = models.BooleanField(default=True)

    class Meta:
        ordering = ["nombre"]
        verbose_name = "área"
        verbose_name_plural = "áreas"

    def __str__(self) -> str:
        return f"{self.sigla} · {self.nombre}"


class User(AbstractUser):
    """A person of the organization; roles are Django groups, visibility follows `areas`."""

    areas = models.ManyToManyField(Area, blank=True, related_name="usuarios", verbose_name="áreas")
    cargo = models.CharField(max_length=150, blank=True)

    class Meta:
        verbose_name = "usuario"
        verbose_name_plural = "usuarios"

    def __str__(self) -> str:
        return self.get_full_name() or self.username

    @property
    def nombre_visible(self) -> str:
        return self.get_full_name() or self.username


class BloqueoIngresoQuerySet(models.QuerySet):
    """Lock episodes, newest first by default."""

    def de_cuenta(self, cuenta: str) -> BloqueoIngresoQuerySet:
        return self.filter(cuenta=cuenta)

    def activos(self) -> BloqueoIngresoQuerySet:
        """Those still in force: not ended by an administrator and not past their end."""
        return self.filter(levantado_en__isnull=True, hasta__gt=timezone.now())


class BloqueoIngreso(models.Model):
    """One lock episode: an account's failed sign-ins from browsers it does not know reached the
    ceiling (HUB_INGRESO_TECHO_CUENTA); until `hasta` only its known browsers get in."""

    cuenta = models.CharField(
        "cuenta", max_length=150, help_text="El usuario como se escribió, en minúsculas."
    )
    usuario = models.ForeignKey(
        User,
        verbose_name="usuario",
        null=True,
        on_delete=models.SET_NULL,
        related_name="bloqueos_ingreso",
    )
    desde = models.DateTimeField("desde")
    hasta = models.DateTimeField("hasta")
    fallos = models.PositiveIntegerField(
        "intentos fallidos", help_text="El techo que se alcanzó, desde navegadores desconocidos."
    )
    avisado_en = models.DateTimeField(
        "aviso por correo",
        null=True,
        blank=True,
        help_text="Cuándo se envió el aviso a la persona; vacío si la cuenta no tiene correo.",
    )
    levantado_en = models.DateTimeField("levantado el", null=True, blank=True)
    # The e-mail's single-use unlock link (apps.cuentas.bloqueos): only its SHA-256 digest.
    enlace_huella = models.CharField(
        "huella del enlace de desbloqueo", max_length=64, blank=True, default="", editable=False
    )
    desbloqueado_en = models.DateTimeField(
        "navegador reconocido por correo el",
        null=True,
        blank=True,
        help_text="Cuándo la persona usó el enlace del aviso para reconocer un navegador.",
    )
    levantado_por = models.ForeignKey(
        User,
        verbose_name="levantado por",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = BloqueoIngresoQuerySet.as_manager()

    class Meta:
        ordering = ["-desde"]
        verbose_name = "bloqueo de ingreso"
        verbose_name_plural = "bloqueos de ingreso"
        indexes = [
            models.Index(fields=["cuenta", "-id"], name="bloqueo_cuenta_idx"),
            models.Index(fields=["enlace_huella"], name="bloqueo_enlace_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.cuenta} · {self.estado}"

    @property
    def estado(self) -> str:
        """Activo, Levantado (by an administrator) or Terminado (its window passed)."""
        if self.levantado_en is not None:
            return "Levantado"
        return "Activo" if self.hasta > timezone.now() else "Terminado"
