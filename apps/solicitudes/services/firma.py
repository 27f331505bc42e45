"""Signing a stage that requires it: the person responsible for it confirms with their password,
and the request's history records who signed which text and when.

Internal to the request: no `Firma` of the public verification (apps.firmas), which is kept to
the budget's documents (PAA lines, CDP, RP and their movements).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    SolicitudCambio,
    TransicionInvalida,
)
from apps.solicitudes.models import Accion, Solicitud
from apps.solicitudes.services.ciclo import CAMBIO, bloquear, exigir_version
from apps.solicitudes.services.flujo import completar_etapa, puede_firmar, requiere_firma
from apps.solicitudes.services.historial import crear_evento, nombre_actor
from apps.solicitudes.services.transiciones import TRANSICIONES

CONTRASENA_INCORRECTA = "La contraseña no es correcta."
# Longer is never a password of this hub; not hashed (PBKDF2 over megabytes costs seconds).
MAX_CONTRASENA = 4096


def texto_de_firma(solicitud: Solicitud) -> str:
    """What signing the current stage declares (the page shows it; the history keeps it)."""
    radicada = (
        timezone.localtime(solicitud.fecha_radicacion) if solicitud.fecha_radicacion else None
    )
    cuando = f", radicada el {radicada:%Y-%m-%d %H:%M}" if radicada else ""
    return (
        f"Firmo la etapa «{solicitud.etapa_actual.nombre}» de la solicitud "
        f"{solicitud.numero_visible} ({solicitud.tipo.nombre}{cuando}): «{solicitud.resumen}»."
    )


def firmar(
    *,
    solicitud: Solicitud,
    actor,
    contrasena: str,
    version: int | None = None,
    texto: str | None = None,
    comentario: str | None = None,
) -> Solicitud:
    """Sign the current stage and complete it (to the next stage, or approved after the last).

    Only a stage that requires a signature, by whoever holds its task (or, unassigned, a person of
    its role; no superuser bypass), with their password (DatosInvalidos on `contrasena` if wrong:
    nothing is written). `version` and `texto`: what the caller's form was drawn for and showed;
    either stale is refused (SolicitudCambio).
    """
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        if s.estado not in TRANSICIONES["avanzar"]:  # signing completes the stage
            raise TransicionInvalida(
                f"No se puede firmar una solicitud en estado «{s.get_estado_display()}»."
            )
        if not requiere_firma(s):
            raise TransicionInvalida("Esta etapa no requiere firma: se completa avanzándola.")
        if not puede_firmar(solicitud=s, actor=actor):
            raise AccionNoPermitida(
                "Firma la etapa quien tiene su tarea, o una persona de su rol si no está asignada."
            )
        firmado = texto_de_firma(s)
        if texto is not None and texto != firmado:
            raise SolicitudCambio(CAMBIO.format(que="el texto a firmar ya no es el que usted vio."))
        if (
            not isinstance(contrasena, str)
            or len(contrasena) > MAX_CONTRASENA
            or not actor.check_password(contrasena)
        ):
            raise DatosInvalidos(
                CONTRASENA_INCORRECTA, campos={"contrasena": [CONTRASENA_INCORRECTA]}
            )
        ahora = timezone.now()
        crear_evento(
            s,
            Accion.FIRMADA,
            actor,
            ahora,
            f"{nombre_actor(actor)} firmó con su contraseña. Texto firmado: {firmado}",
            origen=s.etapa_actual,
        )
        return completar_etapa(s, actor, ahora, comentario)
