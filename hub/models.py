"""Organization-wide knobs of the public endpoints, changed by an administrator at run time."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models

from hub.coherencia import identidad_nueva
from hub.singleton import ModeloUnico


def _limite(verbose: str, default: int, ayuda: str) -> models.PositiveIntegerField:
    return models.PositiveIntegerField(
        verbose, default=default, validators=[MinValueValidator(1)], help_text=ayuda
    )


class Limites(ModeloUnico):
    """Rate limits of the interface's public endpoints (the assistant's live in apps.mcp)."""

    global_por_minuto = _limite(
        "global por IP (por minuto)", 1000, "Todas las rutas, por dirección IP."
    )
    marca_por_minuto = _limite(
        "marca por IP (por minuto)", 600, "GET de la marca y de sus imágenes."
    )
    verificacion_por_minuto = _limite(
        "verificación de firmas por IP (por minuto)", 60, "API y página de verificación."
    )
    contacto_por_10_minutos = _limite(
        "contacto por IP y sitio (10 minutos)", 3, "Mensajes del formulario de contacto."
    )
    contacto_por_dia = _limite("contacto por IP y sitio (día)", 20, "Mensajes por día.")

    class Meta:
        verbose_name = "límites de uso"
        verbose_name_plural = "límites de uso"

    def __str__(self) -> str:
        return "Límites de uso"


class Coherencia(models.Model):
    """What every cached copy of database rows depends on (hub.coherencia): one row, pk=1."""

    generacion = models.BigIntegerField(
        "generación de la caché",
        default=1,
        help_text="Sube cuando una invalidación no llegó a la caché: lo anterior deja de leerse.",
    )
    identidad = models.CharField(
        "identidad de la base de datos",
        max_length=32,
        default=identidad_nueva,
        help_text="Aleatoria; `manage.py tras_restaurar` la cambia después de una restauración.",
    )

    class Meta:
        verbose_name = "coherencia de la caché"
        verbose_name_plural = "coherencia de la caché"

    def __str__(self) -> str:
        return f"Generación {self.generacion}"
