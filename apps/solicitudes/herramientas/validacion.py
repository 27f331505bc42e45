"""Checks the request tools' serializers share."""

from __future__ import annotations

from rest_framework import serializers

from hub.busqueda.texto import limpiar


def texto_limpio(valor: str, minimo: int) -> str:
    """Serializer helper: invisible characters removed and trimmed; what is left must reach
    `minimo` characters (a text of zero-width characters is not a text)."""
    limpio = limpiar(valor).strip()
    if len(limpio) < minimo:
        raise serializers.ValidationError(f"Debe tener al menos {minimo} caracteres visibles.")
    return limpio
