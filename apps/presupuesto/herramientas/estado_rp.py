"""estado_rp: status and balances of one RP whose CDP belongs to the caller's areas."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.mcp.registro import Acceso, Llamada, Resultado, herramienta
from apps.presupuesto.estados import EstadoRp
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
from apps.presupuesto.herramientas.estado_cdp import (
    ESTADO_EXPEDICION,
    detalle_estado,
    no_encontrado,
)
from apps.presupuesto.selectors import ficha_rp
from hub.serializadores import Estricto
from hub.texto import recortar

CAMPOS_RP = [
    "numero_rp",
    "numero_externo",
    "numero_radicado",
    "estado",
    "estado_visible",
    "estado_descripcion",
    "estado_expedicion",
    "cdp",
    "beneficiario",
    "objeto",
    "valor_inicial",
    "valor_actual",
    "obligado",
    "fecha_expedicion",
    "fecha_inicio",
    "fecha_fin",
    "motivo_devolucion",
    "motivo_rechazo",
    "encontrado",
]


class ArgsEstadoRp(Estricto):
    numero = serializers.CharField(
        min_length=2,
        max_length=60,
        help_text=(
            "Número del RP en el hub (p. ej. RP-2026-00007) o su número en el sistema "
            "financiero; sin distinguir mayúsculas."
        ),
    )


SALIDA_ESTADO_RP: dict[str, Any] = {
    "type": "object",
    "properties": {
        "numero_rp": TEXTO,
        "numero_externo": TEXTO_O_NULO,
        "numero_radicado": TEXTO_O_NULO,
        "estado": {"type": "string", "enum": list(EstadoRp.values)},
        "estado_visible": TEXTO,
        "estado_descripcion": TEXTO,
        "estado_expedicion": ESTADO_EXPEDICION,
        "cdp": TEXTO,
        "beneficiario": TEXTO,
        "objeto": TEXTO,
        "valor_inicial": NUMERO,
        "valor_actual": NUMERO,
        "obligado": NUMERO,
        "fecha_expedicion": FECHA_O_NULO,
        "fecha_inicio": FECHA_O_NULO,
        "fecha_fin": FECHA_O_NULO,
        "motivo_devolucion": TEXTO_O_NULO,
        "motivo_rechazo": TEXTO_O_NULO,
        "encontrado": {"type": "boolean", "const": True},
        # Extras (clients ignore what they do not know).
        "movimientos": CONTEO,
        "area": TEXTO,
        "vigencia": ENTERO,
        "enlace": TEXTO,
    },
    "required": CAMPOS_RP,
}


def _resumen(d: dict[str, Any]) -> str:
    externo = f" (n.º externo {d['numero_externo']})" if d["numero_externo"] else ""
    por_obligar = d["valor_actual"] - d["obligado"]
    partes = [
        f"{d['numero_rp']}{externo}: {d['estado_visible']}. {d['estado_descripcion']}",
        f"Respaldado por el {d['cdp']}. Beneficiario: {d['beneficiario'].rstrip('. ')}. "
        f"Objeto: «{recortar(d['objeto'], 200)}».",
        f"Valor inicial {pesos(d['valor_inicial'])}; valor actual {pesos(d['valor_actual'])}; "
        f"obligado {pesos(d['obligado'])}; por obligar {pesos(por_obligar)}.",
    ]
    if d["fecha_expedicion"]:
        partes.append(f"Expedido el {d['fecha_expedicion']}.")
    if d["fecha_inicio"] or d["fecha_fin"]:
        partes.append(f"Plazo: {d['fecha_inicio'] or '?'} a {d['fecha_fin'] or '?'}.")
    if d["numero_radicado"]:
        partes.append(f"Radicado de origen: {d['numero_radicado']}.")
    return " ".join(partes + detalle_estado(d))


@herramienta(
    nombre="estado_rp",
    titulo="Estado de un RP",
    descripcion=(
        "Estado y saldos de un registro presupuestal (RP) por su número del hub o su número "
        "externo (sistema financiero): CDP de origen, beneficiario, valores, obligado y plazo. "
        "Solo RP de CDP de las áreas que la persona puede ver; si no existe o no es visible "
        "responde encontrado=false. Nunca devuelve el documento de identidad del beneficiario."
    ),
    acceso=Acceso.USUARIO,
    permisos=(PLANEACION,),
    argumentos=ArgsEstadoRp,
    salida=SALIDA_ESTADO_RP,
)
def estado_rp(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    ficha = ficha_rp(llamada.usuario, datos["numero"])
    if ficha is None:
        raise no_encontrado("RP")
    estructura = limpio(ficha)
    return Resultado(_resumen(estructura), estructura)
