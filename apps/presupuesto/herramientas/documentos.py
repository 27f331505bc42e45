"""What estado_cdp and estado_rp share, written once and parameterized by the kind of document.

The argument, the frame of the output schema, the not-found error, the sentences about the
review and the tool's body; each tool module says what is its own (fields and sentences).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from apps.presupuesto.estados import EstadoExpedicion
from apps.presupuesto.herramientas.esquemas import TEXTO, TEXTO_O_NULO
from apps.presupuesto.herramientas.formato import limpio
from hub.busqueda.texto import recortar
from hub.herramientas.registro import ENCONTRADO_FALSO, ErrorHerramienta, Llamada, Resultado
from hub.http.serializadores import Estricto

ESTADO_EXPEDICION = {"type": ["string", "null"], "enum": [*EstadoExpedicion.values, None]}


def argumentos(sigla: str, ejemplo: str) -> type[Estricto]:
    """The tools' one argument: the document's number in the hub or in the financial system."""
    numero = serializers.CharField(
        min_length=2,
        max_length=60,
        help_text=(
            f"Número del {sigla} en el hub (p. ej. {ejemplo}) o su número en el sistema "
            "financiero; sin distinguir mayúsculas."
        ),
    )
    return type(f"ArgsEstado{sigla.capitalize()}", (Estricto,), {"numero": numero})


def salida(
    campo_numero: str, estados: list[str], propios: dict[str, Any], *, extras: dict[str, Any]
) -> dict[str, Any]:
    """The output schema: the interface's fields (all required), then the documented extras."""
    campos = {
        campo_numero: TEXTO,
        "numero_externo": TEXTO_O_NULO,
        "numero_radicado": TEXTO_O_NULO,
        "estado": {"type": "string", "enum": estados},
        "estado_visible": TEXTO,
        "estado_descripcion": TEXTO,
        "estado_expedicion": ESTADO_EXPEDICION,
        **propios,
        "motivo_devolucion": TEXTO_O_NULO,
        "motivo_rechazo": TEXTO_O_NULO,
        "encontrado": {"type": "boolean", "const": True},
    }
    # Extras: clients ignore what they do not know.
    return {"type": "object", "properties": {**campos, **extras}, "required": list(campos)}


# What the not-found error adds to codigo and mensaje (the tools' `salida_error`).
SALIDA_NO_ENCONTRADO = {"encontrado": ENCONTRADO_FALSO}


def no_encontrado(sigla: str) -> ErrorHerramienta:
    """One fixed answer for a missing number and for another area's document: nothing tells."""
    return ErrorHerramienta(
        "NO_ENCONTRADO",
        f"No se encontró un {sigla} con ese número entre los de las áreas que usted puede ver. "
        "Verifique el número (el del hub o el del sistema financiero).",
        encontrado=False,
    )


def detalle_estado(datos: dict[str, Any]) -> list[str]:
    """Sentences about the review sub-step and the reasons of a return or a rejection."""
    partes = []
    if datos["estado_expedicion"]:
        partes.append(
            f"Paso de la expedición: {EstadoExpedicion(datos['estado_expedicion']).label}."
        )
    if datos["motivo_devolucion"]:
        partes.append(f"Motivo de la devolución: «{recortar(datos['motivo_devolucion'], 300)}».")
    if datos["motivo_rechazo"]:
        partes.append(f"Motivo del rechazo: «{recortar(datos['motivo_rechazo'], 300)}».")
    return partes


@dataclass(frozen=True)
class Consulta:
    """How one tool reads its kind of document and tells a person about it."""

    sigla: str
    campo_numero: str
    ficha: Callable[[Any, str], dict[str, Any] | None]
    # The sentences after the status line, and those after the expedition date.
    cuerpo: Callable[[dict[str, Any]], list[str]]
    cierre: Callable[[dict[str, Any]], list[str]]

    def responder(self, llamada: Llamada, datos: dict[str, Any]) -> Resultado:
        ficha = self.ficha(llamada.usuario, datos["numero"])
        if ficha is None:
            raise no_encontrado(self.sigla)
        estructura = limpio(ficha)
        return Resultado(self.resumen(estructura), estructura)

    def resumen(self, d: dict[str, Any]) -> str:
        externo = f" (n.º externo {d['numero_externo']})" if d["numero_externo"] else ""
        partes = [
            f"{d[self.campo_numero]}{externo}: {d['estado_visible']}. {d['estado_descripcion']}",
            *self.cuerpo(d),
        ]
        if d["fecha_expedicion"]:
            partes.append(f"Expedido el {d['fecha_expedicion']}.")
        partes += self.cierre(d)
        if d["numero_radicado"]:
            partes.append(f"Radicado de origen: {d['numero_radicado']}.")
        return " ".join(partes + detalle_estado(d))
