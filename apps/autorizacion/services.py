"""Writes on OAuth clients and connections, shared by the admin, the pages and the views."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import AccessToken, RefreshToken

from apps.autorizacion import accesos
from apps.autorizacion.models import Aplicacion
from apps.mcp import services as servicios_asistente


def marcar_verificadas(*, ids: list[int], verificada: bool = True) -> int:
    """Mark clients as verified (or not) by an administrator."""
    with transaction.atomic():
        cuantas = (
            Aplicacion.objects.filter(pk__in=ids)
            .exclude(verificada=verificada)
            .update(verificada=verificada)
        )
        accesos.olvidar()
    return cuantas


def deshabilitar(*, ids: list[int]) -> int:
    """Disable clients: no code nor token any more, and every token they hold stops working
    within the cache-coherence bound on every worker and host (hub.coherencia)."""
    with transaction.atomic():
        cuantas = Aplicacion.objects.filter(pk__in=ids, deshabilitada=False).update(
            deshabilitada=True
        )
        accesos.olvidar_seguro()
    return cuantas


def habilitar(*, ids: list[int]) -> int:
    """Enable disabled clients again."""
    with transaction.atomic():
        cuantas = Aplicacion.objects.filter(pk__in=ids, deshabilitada=True).update(
            deshabilitada=False
        )
        accesos.olvidar()
    return cuantas


def desconectar(*, usuario_id: int, aplicacion_id: int) -> int:
    """Revoke every token of one client for one person at once ("Desconectar")."""
    with transaction.atomic():
        ahora = timezone.now()
        refrescos = RefreshToken.objects.filter(
            user_id=usuario_id, application_id=aplicacion_id, revoked__isnull=True
        ).update(revoked=ahora, updated=ahora)
        accesos_borrados, _ = AccessToken.objects.filter(
            user_id=usuario_id, application_id=aplicacion_id
        ).delete()
        accesos.olvidar_seguro()
    return refrescos + accesos_borrados


def testigo_uso(aplicacion_id: int) -> str:
    """The key of a client's testigo de uso (apps.mcp.services.toca_anotar)."""
    return f"oauth:uso:a{aplicacion_id}"


def anotar_uso(aplicacion: Aplicacion, ahora: datetime | None = None) -> None:
    """Record a client's last use, at most once a minute whichever process served it."""
    ahora = ahora or timezone.now()
    # The cache down: the row is written, which is what it is for.
    if not servicios_asistente.toca_anotar(
        testigo_uso(aplicacion.pk), aplicacion.ultimo_uso, ahora
    ):
        return
    Aplicacion.objects.filter(pk=aplicacion.pk).update(ultimo_uso=ahora)
    aplicacion.ultimo_uso = ahora
