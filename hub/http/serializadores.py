"""Serializer pieces shared by the API and the assistant tools."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from hub.busqueda.texto import limpiar

# JSON type each kind of field accepts, so validation agrees with the JSON Schema we publish:
# DRF alone would take 123 for a string, "5" for an integer and "true" for a boolean.
_TIPOS_JSON: list[tuple[type[serializers.Field], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "Debe ser verdadero o falso (booleano)."),
    (serializers.IntegerField, (int,), "Debe ser un número entero."),
    (serializers.MultipleChoiceField, (list,), "Debe ser una lista."),
    (serializers.CharField, (str,), "Debe ser texto."),
    (serializers.ChoiceField, (str,), "Debe ser texto."),
    (serializers.DateField, (str,), "Debe ser una fecha en texto AAAA-MM-DD."),
    (serializers.DateTimeField, (str,), "Debe ser una fecha y hora en texto."),
    (serializers.ListField, (list,), "Debe ser una lista."),
    (serializers.Serializer, (dict,), "Debe ser un objeto."),
]


NO_ES_OBJETO = {"__all__": ["Se esperaba un objeto JSON."]}
# A hostile body may name thousands of unknown fields, or one of 100,000 characters: the answer
# names the first few, cut short, so that it is never much larger than a normal one.
DESCONOCIDOS_NOMBRADOS = 20
LARGO_NOMBRE = 100


def _desconocidos(nombres: set[str]) -> dict[str, list[str]]:
    """«Campo no permitido.» for the first unknown names, in order, and how many more there were."""
    ordenados = sorted(nombres)
    # Cut, not cleaned: a cleaned name could come out as a declared one.
    errores = {
        (n if len(n) <= LARGO_NOMBRE else n[: LARGO_NOMBRE - 1] + "…"): ["Campo no permitido."]
        for n in ordenados[:DESCONOCIDOS_NOMBRADOS]
    }
    resto = len(ordenados) - DESCONOCIDOS_NOMBRADOS
    if resto > 0:
        errores["__all__"] = [f"Y {resto} campos no permitidos más."]
    return errores


def _tipo_incorrecto(campo: serializers.Field, valor: Any) -> str | None:
    """The problem with `valor`'s JSON type for `campo`, or None when it fits."""
    if valor is None:
        return None  # DRF reports null itself (allow_null decides)
    for clase, tipos, mensaje in _TIPOS_JSON:
        if isinstance(campo, clase):
            if isinstance(valor, bool) and bool not in tipos:
                return mensaje  # True is an int in Python, not in JSON
            return None if isinstance(valor, tipos) else mensaje
    return None


def texto_buscable(valor: str) -> str:
    """Search text without invisible characters; refused when nothing to search is left (a
    text of punctuation alone would match everything)."""
    limpio = limpiar(valor).strip()
    if not any(c.isalnum() for c in limpio):
        raise serializers.ValidationError("Escriba al menos una letra o un número.")
    return limpio


class Estricto(serializers.Serializer):
    """Rejects fields it does not declare and values of the wrong JSON type."""

    def run_validation(self, data=serializers.empty):
        # A JSON `null` body stops before to_internal_value, and DRF answers it in English ("No
        # data provided"); for the root it is just one more value that is not an object.
        if data is None and self.parent is None:
            raise serializers.ValidationError(NO_ES_OBJETO, code="invalid")
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError(NO_ES_OBJETO, code="invalid")
        errores = _desconocidos(set(data) - set(self.fields))
        for nombre, campo in self.fields.items():
            if nombre in data and not campo.read_only:
                problema = _tipo_incorrecto(campo, data[nombre])
                if problema:
                    errores[nombre] = [problema]
        if errores:
            raise serializers.ValidationError(errores)
        return super().to_internal_value(data)


class ConFechas(Estricto):
    """Strict arguments whose optional `desde` is never after `hasta` (searches and lists)."""

    def validate(self, attrs):
        desde, hasta = attrs.get("desde"), attrs.get("hasta")
        if desde and hasta and desde > hasta:
            raise serializers.ValidationError({"hasta": ["Debe ser igual o posterior a desde."]})
        return attrs
