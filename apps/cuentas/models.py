"""People and the organization's areas (dependencias)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


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

    areas = models.ManyToManyField(Area, blank=True, related_name="usuarios")
    cargo = models.CharField(max_length=150, blank=True)

    class Meta:
        verbose_name = "usuario"
        verbose_name_plural = "usuarios"

    def __str__(self) -> str:
        return self.get_full_name() or self.username

    @property
    def nombre_visible(self) -> str:
        return self.get_full_name() or self.username
