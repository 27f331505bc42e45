"""The error of the budget services."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class ErrorPresupuesto(ValidationError):
    """A budget operation the rules do not allow; Spanish message, stable `code`.

    Codes: dato_invalido, transicion_invalida, saldo_insuficiente, sin_asignacion,
    tope_excedido, numero_duplicado. A ValidationError, so admin forms show it as such.
    """

    def __init__(self, mensaje, code: str = "dato_invalido", params=None):
        super().__init__(mensaje, code=code, params=params)
        # ValidationError drops `code` for dict messages; keep it for callers either way.
        self.codigo = code

    @property
    def texto(self) -> str:
        """Every message in one line (for admin messages and tool errors)."""
        return " ".join(self.messages)
