"""Writes on the budget (keyword-only, atomic). Import from here, not from the submodules."""

from __future__ import annotations

from apps.presupuesto.services.cdp import (
    anular_cdp,
    expedir_cdp,
    registrar_movimiento_cdp,
    solicitar_cdp,
)
from apps.presupuesto.services.errores import ErrorPresupuesto
from apps.presupuesto.services.planeacion import (
    activar_vigencia,
    anular_linea,
    aprobar_linea,
    asignar,
    cerrar_linea,
    crear_linea_paa,
    crear_vigencia,
    devolver_linea,
    enviar_linea,
    reservar_consecutivos,
)
from apps.presupuesto.services.revision import (
    aplicar_movimiento,
    devolver,
    marcar_expedicion,
    rechazar,
    rechazar_movimiento,
    reenviar,
    revisar,
    validar_movimiento,
)
from apps.presupuesto.services.rp import (
    anular_rp,
    expedir_rp,
    registrar_movimiento_rp,
    solicitar_rp,
)
from apps.presupuesto.services.saldos import recalcular_saldos

__all__ = [
    "ErrorPresupuesto",
    "activar_vigencia",
    "anular_cdp",
    "anular_linea",
    "anular_rp",
    "aplicar_movimiento",
    "aprobar_linea",
    "asignar",
    "cerrar_linea",
    "crear_linea_paa",
    "crear_vigencia",
    "devolver",
    "devolver_linea",
    "enviar_linea",
    "expedir_cdp",
    "expedir_rp",
    "marcar_expedicion",
    "recalcular_saldos",
    "rechazar",
    "rechazar_movimiento",
    "reenviar",
    "registrar_movimiento_cdp",
    "registrar_movimiento_rp",
    "reservar_consecutivos",
    "revisar",
    "solicitar_cdp",
    "solicitar_rp",
    "validar_movimiento",
]
