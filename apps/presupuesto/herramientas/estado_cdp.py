"""estado_cdp: status and balances of one CDP of the caller's areas, by its number."""

from __future__ import annotations

from typing import Any

from apps.presupuesto.estados import EstadoCdp
from apps.presupuesto.herramientas.documentos import (
    SALIDA_NO_ENCONTRADO,
    Consulta,
    argumentos,
    salida,
)
from apps.presupuesto.herramientas.esquemas import (
    CONTEO,
    ENTERO,
    FECHA_O_NULO,
    NUMERO,
    TEXTO,
    TEXTO_O_NULO,
)
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.herramientas.permisos import PLANEACION
from apps.presupuesto.selectors import ficha_cdp
from hub.busqueda.texto import recortar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta

ArgsEstadoCdp = argumentos("CDP", "CDP-2026-00012")

# The interface's fields, all present in every answer; the extras are documented.
SALIDA_ESTADO_CDP: dict[str, Any] = salida(
    "numero_cdp",
    list(EstadoCdp.values),
    {
        "area": TEXTO,
        "dependencia": TEXTO_O_NULO,
        "objeto": TEXTO,
        "valor_inicial": NUMERO,
        "valor_actual": NUMERO,
        "comprometido": NUMERO,
        "saldo": NUMERO,
        "fecha_expedicion": FECHA_O_NULO,
        "movimientos": CONTEO,
    },
    extras={
        "area_sigla": TEXTO,
        "vigencia": ENTERO,
        "proyecto": TEXTO,
        "linea_paa": {"type": ["integer", "null"]},
        "enlace": TEXTO,
    },
)


def _cuerpo(d: dict[str, Any]) -> list[str]:
    dependencia = f", dependencia {d['dependencia']}" if d["dependencia"] else ""
    return [
        f"Área: {d['area']}{dependencia}. Objeto: «{recortar(d['objeto'], 200)}».",
        f"Valor inicial {pesos(d['valor_inicial'])}; valor actual {pesos(d['valor_actual'])}; "
        f"comprometido en RP {pesos(d['comprometido'])}; saldo {pesos(d['saldo'])}.",
    ]


def _cierre(d: dict[str, Any]) -> list[str]:
    return [f"Movimientos registrados: {d['movimientos']}."]


CONSULTA_CDP = Consulta("CDP", "numero_cdp", ficha_cdp, _cuerpo, _cierre)


@herramienta(
    nombre="estado_cdp",
    area="presupuesto",
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
    salida_error=SALIDA_NO_ENCONTRADO,
)
def estado_cdp(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    return CONSULTA_CDP.responder(llamada, datos)
