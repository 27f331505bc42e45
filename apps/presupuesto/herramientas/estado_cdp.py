"""estado_cdp: status and balances of one CDP of the caller's areas, by its number."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.mcp.registro import Acceso, ErrorHerramienta, Llamada, Resultado, herramienta
from apps.presupuesto.estados import EstadoCdp, EstadoExpedicion
from apps.presupuesto.herramientas.comun import (
    CONTEO,
    ENTERO,
    FECHA_O_NULO,
    NUMERO,
    PLANEACION,
    TEXTO,
    TEXTO_O_NULO,
    limpio,
    pesos,
)
from apps.presupuesto.selectors import ficha_cdp
from hub.serializadores import Estricto
from hub.texto import recortar

# The interface's fields, all present in every answer; the rest are documented extras.
CAMPOS_CDP = [
    "numero_cdp",
    "numero_externo",
    "numero_radicado",
    "estado",
    "estado_visible",
    "estado_descripcion",
    "estado_expedicion",
    "area",
    "dependencia",
    "objeto",
    "valor_inicial",
    "valor_actual",
    "comprometido",
    "saldo",
    "fecha_expedicion",
    "movimientos",
    "motivo_devolucion",
    "motivo_rechazo",
    "encontrado",
]


class ArgsEstadoCdp(Estricto):
    numero = serializers.CharField(
        min_length=2,
        max_length=60,
        help_text=(
            "Número del CDP en el hub (p. ej. CDP-2026-00012) o su número en el sistema "
            "financiero; sin distinguir mayúsculas."
        ),
    )


ESTADO_EXPEDICION = {"type": ["string", "null"], "enum": [*EstadoExpedicion.values, None]}

SALIDA_ESTADO_CDP: dict[str, Any] = {
    "type": "object",
    "properties": {
        "numero_cdp": TEXTO,
        "numero_externo": TEXTO_O_NULO,
        "numero_radicado": TEXTO_O_NULO,
        "estado": {"type": "string", "enum": list(EstadoCdp.values)},
        "estado_visible": TEXTO,
        "estado_descripcion": TEXTO,
        "estado_expedicion": ESTADO_EXPEDICION,
        "area": TEXTO,
        "dependencia": TEXTO_O_NULO,
        "objeto": TEXTO,
        "valor_inicial": NUMERO,
        "valor_actual": NUMERO,
        "comprometido": NUMERO,
        "saldo": NUMERO,
        "fecha_expedicion": FECHA_O_NULO,
        "movimientos": CONTEO,
        "motivo_devolucion": TEXTO_O_NULO,
        "motivo_rechazo": TEXTO_O_NULO,
        "encontrado": {"type": "boolean", "const": True},
        # Extras (clients ignore what they do not know).
        "area_sigla": TEXTO,
        "vigencia": ENTERO,
        "proyecto": TEXTO,
        "linea_paa": {"type": ["integer", "null"]},
        "enlace": TEXTO,
    },
    "required": CAMPOS_CDP,
}


def no_encontrado(clase: str) -> ErrorHerramienta:
    """One fixed answer for a missing number and for another area's document: nothing tells."""
    return ErrorHerramienta(
        "NO_ENCONTRADO",
        f"No se encontró un {clase} con ese número entre los de las áreas que usted puede ver. "
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


def _resumen(d: dict[str, Any]) -> str:
    externo = f" (n.º externo {d['numero_externo']})" if d["numero_externo"] else ""
    dependencia = f", dependencia {d['dependencia']}" if d["dependencia"] else ""
    partes = [
        f"{d['numero_cdp']}{externo}: {d['estado_visible']}. {d['estado_descripcion']}",
        f"Área: {d['area']}{dependencia}. Objeto: «{recortar(d['objeto'], 200)}».",
        f"Valor inicial {pesos(d['valor_inicial'])}; valor actual {pesos(d['valor_actual'])}; "
        f"comprometido en RP {pesos(d['comprometido'])}; saldo {pesos(d['saldo'])}.",
    ]
    if d["fecha_expedicion"]:
        partes.append(f"Expedido el {d['fecha_expedicion']}.")
    partes.append(f"Movimientos registrados: {d['movimientos']}.")
    if d["numero_radicado"]:
        partes.append(f"Radicado de origen: {d['numero_radicado']}.")
    return " ".join(partes + detalle_estado(d))


@herramienta(
    nombre="estado_cdp",
    titulo="Estado de un CDP",
    descripcion=(
        "Estado y saldos de un certificado de disponibilidad presupuestal (CDP) por su número "
        "del hub o su número externo (sistema financiero). Solo CDP de las áreas que la persona "
        "puede ver; si no existe o no es visible responde encontrado=false. Importes en pesos, "
        "números decimales sin símbolo."
    ),
    acceso=Acceso.USUARIO,
    permisos=(PLANEACION,),
    argumentos=ArgsEstadoCdp,
    salida=SALIDA_ESTADO_CDP,
)
def estado_cdp(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    ficha = ficha_cdp(llamada.usuario, datos["numero"])
    if ficha is None:
        raise no_encontrado("CDP")
    estructura = limpio(ficha)
    return Resultado(_resumen(estructura), estructura)
