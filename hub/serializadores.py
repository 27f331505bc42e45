"""Serializer pieces shared by the API and the assistant tools."""

from __future__ import annotations

from rest_framework import serializers


class Estricto(serializers.Serializer):
    """Rejects fields it does not declare: a typo must not be silently ignored."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"__all__": ["Se esperaba un objeto JSON."]}, code="invalid"
            )
        errores = {c: ["Campo no permitido."] for c in sorted(set(data) - set(self.fields))}
        try:
            valor = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            detalle = exc.detail if isinstance(exc.detail, dict) else {"__all__": exc.detail}
            raise serializers.ValidationError({**detalle, **errores}) from None
        if errores:
            raise serializers.ValidationError(errores)
        return valor
