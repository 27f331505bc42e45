"""Writes on OAuth clients and connections, shared by the admin, the pages and the views."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion import accesos
from apps.autorizacion.accesos import ALCANCE_ESCRIBIR, ALCANCE_LEER
from apps.autorizacion.models import Aplicacion, PedidoAlcances
from apps.mcp import areas
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
    within the cache-coherence bound on every worker and host (hub.cache.coherencia)."""
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


class ErrorAjuste(Exception):
    """A change of a connection's scopes that may not be made (the text is for the person)."""


def explicitos(alcances: set[str] | frozenset[str]) -> set[str]:
    """These scopes with their areas named: a set that names no area reaches every area."""
    return {a for a in alcances if a not in areas.POR_ALCANCE} | {
        areas.alcance(a) for a in areas.de_alcances(alcances)
    }


def registrar_pedido(*, usuario_id: int, aplicacion_id: int, alcances: set[str]) -> None:
    """Remember what the application asked for at consent (reading always; every area when it
    named none): the bound of a later widening from the profile."""
    PedidoAlcances.objects.update_or_create(
        usuario_id=usuario_id,
        aplicacion_id=aplicacion_id,
        defaults={"alcances": " ".join(sorted(explicitos(alcances) | {ALCANCE_LEER}))},
    )


def alcances_pedidos(*, usuario_id: int, aplicacion_id: int, actuales: set[str]) -> set[str]:
    """How far this connection may be widened: what the application last asked for; for a
    connection from before that was recorded, what it holds (with every area it reaches)."""
    pedido = (
        PedidoAlcances.objects.filter(usuario_id=usuario_id, aplicacion_id=aplicacion_id)
        .values_list("alcances", flat=True)
        .first()
    )
    if pedido is not None:
        return set(pedido.split())
    return explicitos(actuales) | {ALCANCE_LEER}


def ajustar_conexion(
    *, usuario_id: int, aplicacion_id: int, areas_elegidas: set[str], escribir: bool
) -> set[str]:
    """Narrow or widen one of the person's connections at once: every token and pending code of
    the application gets the new scopes, never beyond what it asked for; every worker stops
    honouring the old ones within the cache-coherence bound (as "Desconectar")."""
    elegidas = {a for a in areas_elegidas if a in areas.AREAS}
    if not elegidas:
        raise ErrorAjuste("Elija al menos un área.")
    nuevos = {ALCANCE_LEER} | {areas.alcance(a) for a in elegidas}
    if escribir:
        nuevos.add(ALCANCE_ESCRIBIR)
    with transaction.atomic():
        filas = AccessToken.objects.select_for_update().filter(
            user_id=usuario_id, application_id=aplicacion_id
        )
        actuales: set[str] = set()
        for scope in filas.values_list("scope", flat=True):
            actuales.update(scope.split())
        tope = alcances_pedidos(
            usuario_id=usuario_id, aplicacion_id=aplicacion_id, actuales=actuales
        )
        if not nuevos <= tope:
            raise ErrorAjuste("La aplicación no pidió ese acceso: conéctela de nuevo para pedirlo.")
        if not PedidoAlcances.objects.filter(
            usuario_id=usuario_id, aplicacion_id=aplicacion_id
        ).exists():
            # The bound of an older connection, kept before it narrows.
            PedidoAlcances.objects.create(
                usuario_id=usuario_id, aplicacion_id=aplicacion_id, alcances=" ".join(sorted(tope))
            )
        scope = " ".join(sorted(nuevos))
        filas.update(
            scope=scope
        )  # not `updated`: it marks the last use (apps.autorizacion.conexiones)
        Grant.objects.filter(user_id=usuario_id, application_id=aplicacion_id).update(scope=scope)
        accesos.olvidar_seguro()
    return nuevos


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
