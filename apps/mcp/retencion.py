"""The assistant's purges for `manage.py mantenimiento` (hub.retencion discovers this module)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from apps.mcp import rechazos
from apps.mcp.models import (
    AuditoriaQuerySet,
    ConfirmacionUsada,
    RechazoAsistente,
    RegistroAuditoria,
)
from hub.retencion import ANTES_DE_PURGAR, PURGAS, Purga


@ANTES_DE_PURGAR.agregar
def cerrar_rechazos() -> str:
    """The refusal counts still in the cache reach their rows before the purge."""
    return f"rechazos del asistente: {rechazos.volcar()} fila(s) cerrada(s)"


@PURGAS.agregar
def confirmaciones_vencidas(ahora: datetime) -> Purga:
    return Purga(
        "confirmaciones usadas vencidas",
        "borradas",
        ConfirmacionUsada.objects.vencidas(ahora),
    )


@PURGAS.agregar
def auditoria(ahora: datetime) -> Purga:
    dias = settings.HUB_RETENCION_AUDITORIA_DIAS
    if dias is None:
        return Purga(
            "registro de auditoría",
            "borradas",
            None,
            motivo="se conserva todo (HUB_RETENCION_AUDITORIA_DIAS sin definir)",
        )
    return Purga(
        f"registro de auditoría (más de {dias} días)",
        "borradas",
        RegistroAuditoria.objects.anteriores_a(ahora - timedelta(days=dias)),
        borrar=AuditoriaQuerySet.purgar_por_retencion,
    )


@PURGAS.agregar
def rechazos_del_asistente(ahora: datetime) -> Purga:
    """The refusal counts sit beside the audit log: they are kept as long as it is."""
    dias = settings.HUB_RETENCION_AUDITORIA_DIAS
    if dias is None:
        return Purga(
            "rechazos del asistente",
            "borradas",
            None,
            motivo="se conserva todo, como el registro de auditoría",
        )
    return Purga(
        f"rechazos del asistente (más de {dias} días)",
        "borradas",
        RechazoAsistente.objects.anteriores_a(ahora - timedelta(days=dias)),
    )
