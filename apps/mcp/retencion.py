"""The assistant's purges for `manage.py mantenimiento` (hub.operacion.retencion discovers this
module)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from apps.mcp import rechazos
from apps.mcp.models import (
    Aprobacion,
    AuditoriaQuerySet,
    ConfirmacionUsada,
    RechazoAsistente,
    RegistroAuditoria,
)
from hub.operacion.retencion import ANTES_DE_PURGAR, PURGAS, Purga


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
def aprobaciones_vencidas(ahora: datetime) -> Purga:
    """An approval on the hub goes with its token: past its expiry nothing reads it."""
    return Purga("aprobaciones en el hub vencidas", "borradas", Aprobacion.objects.vencidas(ahora))


def _con_la_auditoria(
    ahora: datetime, nombre: str, filas: QuerySet, conservar: str, **opciones: Any
) -> Purga:
    """Rows kept HUB_RETENCION_AUDITORIA_DIAS days, or all of them while it is unset."""
    dias = settings.HUB_RETENCION_AUDITORIA_DIAS
    if dias is None:
        return Purga(nombre, "borradas", None, motivo=conservar)
    return Purga(
        f"{nombre} (más de {dias} días)",
        "borradas",
        filas.anteriores_a(ahora - timedelta(days=dias)),
        **opciones,
    )


@PURGAS.agregar
def auditoria(ahora: datetime) -> Purga:
    conservar = "se conserva todo (HUB_RETENCION_AUDITORIA_DIAS sin definir)"
    filas = RegistroAuditoria.objects.all()
    # Audit rows refuse an ordinary delete: the retention is the one way out.
    borrar = AuditoriaQuerySet.purgar_por_retencion
    return _con_la_auditoria(ahora, "registro de auditoría", filas, conservar, borrar=borrar)


@PURGAS.agregar
def rechazos_del_asistente(ahora: datetime) -> Purga:
    """The refusal counts sit beside the audit log: they are kept as long as it is."""
    conservar = "se conserva todo, como el registro de auditoría"
    filas = RechazoAsistente.objects.all()
    return _con_la_auditoria(ahora, "rechazos del asistente", filas, conservar)
