"""A budget document's or PAA line's next state, checked against its state table."""

from __future__ import annotations

from apps.presupuesto.services.errores import ErrorPresupuesto

VERBOS = {
    "revisar": "pasar a revisión",
    "devolver": "devolver",
    "reenviar": "reenviar",
    "rechazar": "rechazar",
    "expedir": "expedir",
    "anular": "anular",
    "enviar": "enviar a revisión",
    "aprobar": "aprobar",
    "cerrar": "cerrar",
}


def transicion(
    tabla: dict[str, tuple[frozenset[str], str]], accion: str, estado: str, etiqueta: str
) -> str:
    """The state `accion` leads to from `estado`, or a clear error when not allowed."""
    origenes, destino = tabla[accion]
    if estado not in origenes:
        raise ErrorPresupuesto(
            f"No se puede {VERBOS.get(accion, accion)} {etiqueta} en estado «{estado}».",
            code="transicion_invalida",
        )
    return destino
