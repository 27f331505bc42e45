"""Writes the person approves on the hub (issue 40), when the organization switches it on.

The preview of a write keeps, beside its confirmation token, a row keyed by the token's id that
holds what will be written; its page (a random id of its own in the address, never the token)
shows it to the token's person alone, with «Aprobar» and «Rechazar». The confirming call checks
the token exactly as before and then this row: pending, it answers APROBACION_PENDIENTE;
rejected, APROBACION_RECHAZADA (the rejection also spent the token); approved, the write runs,
once, through the same spent-token record as ever.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.mcp import confirmacion
from apps.mcp.credenciales import Identidad
from apps.mcp.models import AjustesAsistente, Aprobacion, ConfirmacionUsada
from hub.herramientas.registro import ErrorHerramienta, Herramienta
from hub.http.enlaces import absoluta

PENDIENTE = "APROBACION_PENDIENTE"
RECHAZADA = "APROBACION_RECHAZADA"


class DecisionImposible(Exception):
    """The approval can no longer be decided (already decided, or expired)."""

    def __init__(self, mensaje: str):
        self.mensaje = mensaje
        super().__init__(mensaje)


def enlace_de(aprobacion: Aprobacion) -> dict[str, str]:
    """The `aprobacion` object of a result: relative `enlace` and absolute `url`."""
    return {"enlace": aprobacion.enlace, "url": absoluta(aprobacion.enlace)}


@transaction.atomic
def crear(
    *,
    carga: dict[str, Any],
    identidad: Identidad,
    herramienta: Herramienta,
    resumen: str,
    previa: dict[str, Any],
) -> Aprobacion:
    """The pending approval of a new preview, expiring with its token."""
    return Aprobacion.objects.create(
        jti=str(carga["j"])[:32],
        clave=secrets.token_urlsafe(32),
        herramienta=herramienta.nombre,
        titulo=herramienta.titulo,
        usuario=identidad.usuario,
        resumen=resumen,
        previa=previa,
        vence=confirmacion.vence_de(carga),
    )


def exigir(*, carga: dict[str, Any], ajustes: AjustesAsistente) -> bool:
    """True when the person approved this token on the hub; False when no approval is needed
    (switch off, token issued without one); ErrorHerramienta otherwise."""
    fila = Aprobacion.objects.filter(jti=str(carga["j"])[:32]).first()
    if fila is None:
        if not ajustes.aprobar_en_el_hub:
            return False
        # Issued before the switch was turned on: nobody can approve it on the hub.
        raise ErrorHerramienta(
            "CONFIRMACION_INVALIDA",
            "La organización exige aprobar las escrituras en el hub y este token se emitió sin "
            "aprobación. Pida una nueva vista previa (sin confirmar).",
        )
    if fila.estado == Aprobacion.Estado.APROBADA:
        return True
    if fila.estado == Aprobacion.Estado.RECHAZADA:
        raise ErrorHerramienta(
            RECHAZADA,
            "La persona rechazó esta operación en el hub: no se escribió nada y el token ya no "
            "sirve. No la repita salvo que la persona pida una nueva.",
        )
    raise ErrorHerramienta(
        PENDIENTE,
        "La persona todavía no aprobó esta operación en el hub. Pídale que abra el enlace de "
        f"aprobación ({absoluta(fila.enlace)}), revise lo que se escribirá y pulse «Aprobar»; "
        "después repita esta llamada con los mismos argumentos y el mismo token.",
        aprobacion=enlace_de(fila),
    )


@transaction.atomic
def decidir(*, usuario, clave: str, aprobar: bool) -> Aprobacion:
    """Approve or reject the person's own pending approval; rejecting spends the token.

    Aprobacion.DoesNotExist when it is not theirs; DecisionImposible when it is no longer pending
    or its token expired.
    """
    fila = Aprobacion.objects.de(usuario).select_for_update().get(clave=clave)
    ahora = timezone.now()
    if fila.estado != Aprobacion.Estado.PENDIENTE:
        raise DecisionImposible(f"Esta operación ya fue {fila.get_estado_display().lower()}.")
    if fila.vencida(ahora):
        raise DecisionImposible("Esta vista previa venció: pida al asistente una nueva.")
    fila.estado = Aprobacion.Estado.APROBADA if aprobar else Aprobacion.Estado.RECHAZADA
    fila.decidida_en = ahora
    fila.save(update_fields=["estado", "decidida_en"])
    if not aprobar:
        # Spent for good, whatever the switch says later: the record of used tokens holds it.
        ConfirmacionUsada.objects.get_or_create(
            jti=fila.jti,
            defaults={"herramienta": fila.herramienta, "usuario": usuario, "vence": fila.vence},
        )
    return fila


def escrita(fila: Aprobacion) -> bool:
    """Whether the approved write already ran (its token was spent by the confirmation)."""
    return (
        fila.estado == Aprobacion.Estado.APROBADA
        and ConfirmacionUsada.objects.filter(jti=fila.jti).exists()
    )
