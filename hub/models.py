"""Organization-wide knobs of the public endpoints, changed by an administrator at run time."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models

from hub.cache.coherencia import Coherencia  # noqa: F401 - the model lives beside the seal it carries
from hub.cache.singleton import ModeloUnico


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
