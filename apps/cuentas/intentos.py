"""Sign-in throttling (interface-independent, issue 13): failed sign-ins on /cuentas/login/ and
/admin/login/ are counted per account + address and per address (an address as every per-IP
limit counts it, hub.limites.clave_ip: IPv6 by /64); once either is spent, every
sign-in from that address is answered 429 (the right password too) until its window passes.

Only failures count, and per address: a stranger cannot lock a person out from elsewhere. The
counters live in the shared cache through hub.limites; when it cannot count, sign-in fails closed
(503), as failed verifications do: an unlimited password guesser is worse than a short outage.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone

from hub.ip import ip_cliente
from hub.limites import CacheNoDisponible, Regla, Uso, clave_ip, contar

logger = logging.getLogger(__name__)

VENTANA = 15 * 60
POR_CUENTA = 10  # failed sign-ins per account and address
POR_DIRECCION = 30  # failed sign-ins per address, whatever the accounts
OLVIDOS_POR_HORA = 5  # password-reset requests per address (each may send an e-mail)
MAX_USUARIO = 150


def cuenta(request: HttpRequest) -> str:
    """The account a sign-in names, as typed (trimmed, case-folded, bounded)."""
    return (request.POST.get("username") or "").strip().casefold()[:MAX_USUARIO]


REGLAS_INGRESO = (
    Regla(
        "ingreso-cuenta",
        lambda: POR_CUENTA,
        VENTANA,
        lambda r: f"{cuenta(r)}\0{clave_ip(r)}",
    ),
    Regla("ingreso-direccion", lambda: POR_DIRECCION, VENTANA, clave_ip),
)
REGLA_OLVIDO = Regla("clave-olvido", lambda: OLVIDOS_POR_HORA, 3600, clave_ip)


def _uso(request: HttpRequest, regla: Regla, *, incrementar: bool) -> Uso:
    return contar(
        grupo=regla.grupo,
        clave=regla.clave(request),
        limite=regla.limite(),
        ventana=regla.ventana,
        incrementar=incrementar,
    )


def bloqueo(request: HttpRequest) -> Uso | None:
    """The spent window that frees last, or None; raises CacheNoDisponible."""
    agotados = [
        uso
        for uso in (_uso(request, regla, incrementar=False) for regla in REGLAS_INGRESO)
        if uso.usados >= uso.limite
    ]
    return max(agotados, key=lambda u: u.reintentar_en) if agotados else None


@receiver(user_login_failed, dispatch_uid="cuentas-ingreso-fallido")
def anotar_fallo(sender, credentials: dict, request: HttpRequest | None = None, **kwargs) -> None:
    """Count one failed sign-in and log it: who was named and from where, never the password."""
    if request is None:
        return
    ip = ip_cliente(request)
    usuario = str(credentials.get("username", ""))[:MAX_USUARIO]
    logger.warning("ingreso fallido: usuario=%r ip=%s ruta=%s", usuario, ip, request.path)
    try:
        for regla in REGLAS_INGRESO:
            _uso(request, regla, incrementar=True)
    except CacheNoDisponible:
        logger.error("cache no disponible: ingreso fallido sin contar")


def _respuesta(request: HttpRequest, uso: Uso | None, estado: int) -> HttpResponse:
    contexto = {"no_disponible": uso is None}
    headers = {"Cache-Control": "no-store"}
    if uso is not None:
        contexto["minutos"] = math.ceil(uso.reintentar_en / 60)
        contexto["hora"] = timezone.localtime() + timedelta(seconds=uso.reintentar_en)
        headers["Retry-After"] = str(uso.reintentar_en)
    return TemplateResponse(
        request, "cuentas/demasiados_intentos.html", contexto, status=estado, headers=headers
    )


def demasiados_intentos(request: HttpRequest, uso: Uso) -> HttpResponse:
    """429 with Retry-After and the branded Spanish page."""
    return _respuesta(request, uso, 429)


def no_disponible(request: HttpRequest) -> HttpResponse:
    """503 with the branded page: the counters cannot be read, so nobody is let in unchecked."""
    return _respuesta(request, None, 503)


def limitar_ingreso(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a sign-in view: a POST from an address that spent its failures gets 429."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST":
            try:
                uso = bloqueo(request)
            except CacheNoDisponible:
                logger.error("cache no disponible: ingreso rechazado (falla cerrado)")
                return no_disponible(request)
            if uso is not None:
                logger.warning(
                    "ingreso bloqueado: usuario=%r ip=%s durante %s s",
                    cuenta(request),
                    ip_cliente(request),
                    uso.reintentar_en,
                )
                return demasiados_intentos(request, uso)
        return vista(request, *args, **kwargs)

    return envuelta


def limitar_olvido(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap the password-reset request: each POST counts, past the hourly limit 429."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST":
            try:
                uso = _uso(request, REGLA_OLVIDO, incrementar=True)
            except CacheNoDisponible:
                logger.error("cache no disponible: restablecimiento rechazado (falla cerrado)")
                return no_disponible(request)
            if uso.excedido:
                return demasiados_intentos(request, uso)
        return vista(request, *args, **kwargs)

    return envuelta
