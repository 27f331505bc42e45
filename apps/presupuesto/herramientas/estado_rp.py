"""estado_rp: status and balances of one RP whose CDP belongs to the caller's areas."""

from __future__ import annotations

from typing import Any

from apps.presupuesto.estados import EstadoRp
from apps.presupuesto.herramientas.documentos import (
    SALIDA_NO_ENCONTRADO,
    Consulta,
    argumentos,
    salida,
)
from apps.presupuesto.herramientas.esquemas import CONTEO, ENTERO, FECHA_O_NULO, NUMERO, TEXTO
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.herramientas.permisos import PLANEACION
from apps.presupuesto.selectors import ficha_rp
from hub.busqueda.texto import recortar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta

ArgsEstadoRp = argumentos("RP", "RP-2026-00007")

SALIDA_ESTADO_RP: dict[str, Any] = salida(
    "numero_rp",
    list(EstadoRp.values),
    {
        "cdp": TEXTO,
        "beneficiario": TEXTO,
        "objeto": TEXTO,
        "valor_inicial": NUMERO,
        "valor_actual": NUMERO,
        "obligado": NUMERO,
        "fecha_expedicion": FECHA_O_NULO,
        "fecha_inicio": FECHA_O_NULO,
        "fecha_fin": FECHA_O_NULO,
    },
    extras={"movimientos": CONTEO, "area": TEXTO, "vigencia": ENTERO, "enlace": TEXTO},
)


def _cuerpo(d: dict[str, Any]) -> list[str]:
    por_obligar = d["valor_actual"] - d["obligado"]
    return [
        f"Respaldado por el {d['cdp']}. Beneficiario: {d['beneficiario'].rstrip('. ')}. "
        f"Objeto: «{recortar(d['objeto'], 200)}».",
        f"Valor inicial {pesos(d['valor_inicial'])}; valor actual {pesos(d['valor_actual'])}; "
        f"obligado {pesos(d['obligado'])}; por obligar {pesos(por_obligar)}.",
    ]


def _cierre(d: dict[str, Any]) -> list[str]:
    if d["fecha_inicio"] or d["fecha_fin"]:
        return [f"Plazo: {d['fecha_inicio'] or '?'} a {d['fecha_fin'] or '?'}."]
    return []


CONSULTA_RP = Consulta("RP", "numero_rp", ficha_rp, _cuerpo, _cierre)


@herramienta(
    nombre="estado_rp",
    area="presupuesto",
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
    salida_error=SALIDA_NO_ENCONTRADO,
)
def estado_rp(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    return CONSULTA_RP.responder(llamada, datos)
