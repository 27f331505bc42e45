"""States of PAA lines, CDP, RP and their movements, and the transitions allowed between them.

The tables below are the state machine: services consult them, the admin and the decision file
describe them. Automatic moves (expedido <-> agotado, expedido <-> ejecutado, aprobada ->
en_ejecucion) are made by the services when balances change, never by hand.
"""

from __future__ import annotations

from django.db import models


class EstadoLinea(models.TextChoices):
    BORRADOR = "borrador", "Borrador"
    EN_REVISION = "en_revision", "En revisión"
    APROBADA = "aprobada", "Aprobada"
    EN_EJECUCION = "en_ejecucion", "En ejecución"
    EJECUTADA = "ejecutada", "Ejecutada"
    ANULADA = "anulada", "Anulada"


class EstadoCdp(models.TextChoices):
    SOLICITADO = "solicitado", "Solicitado"
    EN_REVISION = "en_revision", "En revisión"
    DEVUELTO = "devuelto", "Devuelto"
    RECHAZADO = "rechazado", "Rechazado"
    EXPEDIDO = "expedido", "Expedido"
    AGOTADO = "agotado", "Agotado"
    ANULADO = "anulado", "Anulado"


class EstadoRp(models.TextChoices):
    SOLICITADO = "solicitado", "Solicitado"
    EN_REVISION = "en_revision", "En revisión"
    DEVUELTO = "devuelto", "Devuelto"
    RECHAZADO = "rechazado", "Rechazado"
    EXPEDIDO = "expedido", "Expedido"
    EJECUTADO = "ejecutado", "Ejecutado"
    ANULADO = "anulado", "Anulado"


class EstadoExpedicion(models.TextChoices):
    """Sub-step of a document under review; null in every other state."""

    EN_SISTEMA_FINANCIERO = "en_sistema_financiero", "En registro en el sistema financiero"
    EN_FIRMA = "en_firma", "En firma del ordenador del gasto"


class EstadoMovimiento(models.TextChoices):
    SOLICITADO = "solicitado", "Solicitado"
    APLICADO = "aplicado", "Aplicado"
    RECHAZADO = "rechazado", "Rechazado"


class TipoMovimientoCdp(models.TextChoices):
    ADICION = "adicion", "Adición"
    REDUCCION = "reduccion", "Reducción"
    ANULACION = "anulacion", "Anulación"


class TipoMovimientoRp(models.TextChoices):
    ADICION = "adicion", "Adición"
    REDUCCION = "reduccion", "Reducción"
    OBLIGACION = "obligacion", "Obligación"
    ANULACION = "anulacion", "Anulación"


DESCRIPCION_CDP: dict[str, str] = {
    EstadoCdp.SOLICITADO: (
        "La solicitud del CDP fue registrada y espera la revisión del área financiera."
    ),
    EstadoCdp.EN_REVISION: "El área financiera está revisando la solicitud del CDP.",
    EstadoCdp.DEVUELTO: (
        "La solicitud del CDP fue devuelta al área solicitante para que la corrija; "
        "ver el motivo de la devolución."
    ),
    EstadoCdp.RECHAZADO: (
        "La solicitud del CDP fue rechazada y no continuará; ver el motivo del rechazo."
    ),
    EstadoCdp.EXPEDIDO: "El CDP fue expedido y tiene saldo disponible para comprometer.",
    EstadoCdp.AGOTADO: (
        "El CDP fue expedido y todo su valor está comprometido en registros presupuestales."
    ),
    EstadoCdp.ANULADO: "El CDP fue anulado: su valor se liberó y ya no respalda compromisos.",
}

DESCRIPCION_RP: dict[str, str] = {
    EstadoRp.SOLICITADO: (
        "La solicitud del RP fue registrada y espera la revisión del área financiera."
    ),
    EstadoRp.EN_REVISION: "El área financiera está revisando la solicitud del RP.",
    EstadoRp.DEVUELTO: (
        "La solicitud del RP fue devuelta al área solicitante para que la corrija; "
        "ver el motivo de la devolución."
    ),
    EstadoRp.RECHAZADO: (
        "La solicitud del RP fue rechazada y no continuará; ver el motivo del rechazo."
    ),
    EstadoRp.EXPEDIDO: (
        "El RP fue expedido: el compromiso está registrado y tiene saldo por obligar."
    ),
    EstadoRp.EJECUTADO: "El RP está totalmente obligado: todo su valor fue obligado para pago.",
    EstadoRp.ANULADO: "El RP fue anulado: su valor regresó al saldo del CDP.",
}

DESCRIPCION_LINEA: dict[str, str] = {
    EstadoLinea.BORRADOR: "La línea del PAA está en elaboración por el área.",
    EstadoLinea.EN_REVISION: "La línea del PAA está en revisión de la Oficina de Planeación.",
    EstadoLinea.APROBADA: "La línea del PAA está aprobada y puede respaldar solicitudes de CDP.",
    EstadoLinea.EN_EJECUCION: "La línea del PAA tiene al menos un CDP expedido.",
    EstadoLinea.EJECUTADA: "La contratación de la línea del PAA terminó.",
    EstadoLinea.ANULADA: "La línea del PAA fue anulada y salió del plan.",
}

# action -> (states it may start from, state it leads to). CDP and RP share the review flow.
_FLUJO_REVISION: dict[str, tuple[frozenset[str], str]] = {
    "revisar": (frozenset({"solicitado"}), "en_revision"),
    "devolver": (frozenset({"solicitado", "en_revision"}), "devuelto"),
    "reenviar": (frozenset({"devuelto"}), "solicitado"),
    "rechazar": (frozenset({"solicitado", "en_revision", "devuelto"}), "rechazado"),
    "expedir": (frozenset({"solicitado", "en_revision"}), "expedido"),
}

TRANSICIONES_CDP: dict[str, tuple[frozenset[str], str]] = {
    **_FLUJO_REVISION,
    "anular": (frozenset({EstadoCdp.EXPEDIDO, EstadoCdp.AGOTADO}), EstadoCdp.ANULADO),
}

TRANSICIONES_RP: dict[str, tuple[frozenset[str], str]] = {
    **_FLUJO_REVISION,
    "anular": (frozenset({EstadoRp.EXPEDIDO, EstadoRp.EJECUTADO}), EstadoRp.ANULADO),
}

TRANSICIONES_LINEA: dict[str, tuple[frozenset[str], str]] = {
    "enviar": (frozenset({EstadoLinea.BORRADOR}), EstadoLinea.EN_REVISION),
    "devolver": (frozenset({EstadoLinea.EN_REVISION}), EstadoLinea.BORRADOR),
    "aprobar": (frozenset({EstadoLinea.EN_REVISION}), EstadoLinea.APROBADA),
    "cerrar": (frozenset({EstadoLinea.EN_EJECUCION}), EstadoLinea.EJECUTADA),
    "anular": (
        frozenset({EstadoLinea.BORRADOR, EstadoLinea.EN_REVISION, EstadoLinea.APROBADA}),
        EstadoLinea.ANULADA,
    ),
}

# Movements may be registered only on documents in these states.
CDP_CON_SALDO = frozenset({EstadoCdp.EXPEDIDO, EstadoCdp.AGOTADO})
RP_VIGENTE = frozenset({EstadoRp.EXPEDIDO, EstadoRp.EJECUTADO})
# CDP states whose value counts as certified, RP states whose value counts as committed.
CDP_CERTIFICAN = CDP_CON_SALDO
RP_COMPROMETEN = RP_VIGENTE
# RP states that still hold or may come to hold part of their CDP (block annulling the CDP).
RP_ACTIVOS = frozenset(
    {
        EstadoRp.SOLICITADO,
        EstadoRp.EN_REVISION,
        EstadoRp.DEVUELTO,
        EstadoRp.EXPEDIDO,
        EstadoRp.EJECUTADO,
    }
)
# PAA lines that are part of the approved plan (their value counts as programado).
LINEAS_PROGRAMADAS = frozenset(
    {EstadoLinea.APROBADA, EstadoLinea.EN_EJECUCION, EstadoLinea.EJECUTADA}
)
# PAA lines that may back a CDP request.
LINEAS_CON_CDP = frozenset({EstadoLinea.APROBADA, EstadoLinea.EN_EJECUCION})
