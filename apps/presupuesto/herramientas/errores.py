"""The tool errors the budget tools share: no active vigencia, a filter that matches nothing."""

from __future__ import annotations

from apps.presupuesto.selectors import FiltroInvalido
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import ErrorHerramienta


def sin_vigencia() -> ErrorHerramienta:
    return ErrorHerramienta(
        "NO_ENCONTRADO",
        "No hay una vigencia presupuestal activa: no hay tablero que mostrar. Un administrador "
        "de presupuesto debe activar la vigencia del año.",
    )


# What filtro_invalido adds to codigo, mensaje and campos (the tools' `salida_error`).
SALIDA_FILTRO_INVALIDO = {"opciones": {"type": "array", "items": {"type": "string"}}}


def filtro_invalido(exc: FiltroInvalido) -> ErrorHerramienta:
    """A project or area filter that matches nothing visible (or several where one is needed)."""
    mensaje = exc.mensaje
    if exc.opciones:
        mensaje = f"{mensaje} Opciones: {', '.join(exc.opciones)}."
    return ErrorHerramienta(
        "DATOS_INVALIDOS",
        limpiar(mensaje),
        campos={exc.campo: [limpiar(mensaje)]},
        opciones=[limpiar(o) for o in exc.opciones],
    )
