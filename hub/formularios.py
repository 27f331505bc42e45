"""Form fields the admin screens share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError


class CampoLineas(forms.CharField):
    """A list edited as text, one item per line; blank lines are dropped, and a refused line is
    named by its number."""

    widget = forms.Textarea(attrs={"rows": 5, "cols": 80})

    def convertir(self, linea: str) -> str:
        """One line as stored; raise ValidationError to refuse it."""
        return linea.strip()

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "\n".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        texto = super().to_python(value) or ""
        elementos, errores = [], []
        for numero, linea in enumerate(texto.splitlines(), start=1):
            if not linea.strip():
                continue
            try:
                elementos.append(self.convertir(linea))
            except ValidationError as exc:
                errores.append(f"Línea {numero}: {exc.messages[0]}")
        if errores:
            raise ValidationError(errores)
        return elementos
