"""Sign-in throttling (interface-independent, issue 13): failed sign-ins on /cuentas/login/ and
/admin/login/ are counted per account + address and per address (an address as every per-IP
limit counts it, hub.http.limites.clave_ip: IPv6 by /64); once either is spent, every
sign-in from that address is answered 429 (the right password too) until its window passes.

Only failures count, and per address: a stranger cannot lock a person out from elsewhere. Across
addresses, an account's failures from browsers it does not know lock it for such browsers only
(apps.cuentas.bloqueos, issue 23 item 5); a browser with the account's device cookie
(apps.cuentas.dispositivos) keeps getting in, within a budget of failures of its own.

The counters live in the shared cache through hub.http.limites; when it cannot count, sign-in fails
closed (503), as failed verifications do: an unlimited password guesser is worse than a short
outage.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone

from apps.cuentas import bloqueos, correo, dispositivos
from hub.http.ip import ip_cliente
from hub.http.limites import CacheNoDisponible, Regla, Uso, clave_ip, contar

logger = logging.getLogger(__name__)

VENTANA = 15 * 60
POR_CUENTA = 10  # failed sign-ins per account and address
POR_DIRECCION = 30  # failed sign-ins per address, whatever the accounts
OLVIDOS_POR_HORA = 5  # password-reset requests per address (each may send an e-mail)
MAX_USUARIO = 150


def cuenta(request: HttpRequest) -> str:
    """The account a sign-in names, as typed (trimmed, case-folded, bounded); on a password
    change, the signed-in person's (limitar_cambio_clave sets it); none when it holds NUL, which
    no account has and PostgreSQL cannot look up (the form refuses it, unchecked)."""
    nombre = getattr(request, "_hub_cuenta", None)
    if nombre is None:
        nombre = request.POST.get("username") or ""
    nombre = nombre.strip().casefold()[:MAX_USUARIO]
    return "" if "\x00" in nombre else nombre


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
GRUPO_DISPOSITIVO = "ingreso-dispositivo"


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


def _uso_dispositivo(nonce: str, *, incrementar: bool) -> Uso:
    """The failures of one known browser (its device cookie's nonce) in the account's window."""
    return contar(
        grupo=GRUPO_DISPOSITIVO,
        clave=nonce,
        limite=settings.HUB_INGRESO_FALLOS_DISPOSITIVO,
        ventana=settings.HUB_INGRESO_VENTANA_CUENTA,
        incrementar=incrementar,
    )


def dispositivo_conocido(request: HttpRequest, nombre: str) -> str | None:
    """The nonce of this browser's device cookie for the account, if valid and its budget of
    failures is not spent; raises CacheNoDisponible."""
    nonce = dispositivos.reconocido(request, nombre)
    if nonce is None:
        return None
    uso = _uso_dispositivo(nonce, incrementar=False)
    # A spent budget makes it a browser like any other (OWASP puts it in a lockout list): the
    # account's lock, if any, applies to it, and its failures count towards the account again.
    return nonce if uso.usados < uso.limite else None


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
        nombre = cuenta(request)
        if not nombre:
            return
        # Set by limitar_ingreso: a known browser's failures count against its own budget only.
        nonce = getattr(request, "_hub_dispositivo", None)
        if nonce is not None:
            _uso_dispositivo(nonce, incrementar=True)
        else:
            bloqueos.anotar_fallo(request, nombre)
    except CacheNoDisponible:
        logger.error("cache no disponible: ingreso fallido sin contar")


@receiver(user_logged_in, dispatch_uid="cuentas-ingreso-exitoso")
def anotar_ingreso(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Remember who signed in: limitar_ingreso gives that browser a fresh device cookie."""
    if request is not None:
        request._hub_ingresado = user


def _respuesta(
    request: HttpRequest, segundos: int | None, estado: int, *, protegida: bool = False
) -> HttpResponse:
    contexto = {"no_disponible": segundos is None, "protegida": protegida}
    headers = {"Cache-Control": "no-store"}
    if segundos is not None:
        contexto["minutos"] = math.ceil(segundos / 60)
        contexto["hora"] = timezone.localtime() + timedelta(seconds=segundos)
        headers["Retry-After"] = str(segundos)
    return TemplateResponse(
        request, "cuentas/demasiados_intentos.html", contexto, status=estado, headers=headers
    )


def demasiados_intentos(request: HttpRequest, uso: Uso) -> HttpResponse:
    """429 with Retry-After and the branded Spanish page."""
    return _respuesta(request, uso.reintentar_en, 429)


def cuenta_protegida(request: HttpRequest, segundos: int) -> HttpResponse:
    """429 for a browser the locked account does not know: its password was not even checked."""
    return _respuesta(request, segundos, 429, protegida=True)


def no_disponible(request: HttpRequest) -> HttpResponse:
    """503 with the branded page: the counters cannot be read, so nobody is let in unchecked."""
    return _respuesta(request, None, 503)


def _antes_de_ingresar(request: HttpRequest) -> HttpResponse | None:
    """The refusal a sign-in POST gets before its password is checked, or None to go on.

    Raises CacheNoDisponible.
    """
    uso = bloqueo(request)
    if uso is not None:
        logger.warning(
            "ingreso bloqueado: usuario=%r ip=%s durante %s s",
            cuenta(request),
            ip_cliente(request),
            uso.reintentar_en,
        )
        return demasiados_intentos(request, uso)
    nombre = cuenta(request)
    if not nombre:
        return None
    request._hub_dispositivo = dispositivo_conocido(request, nombre)
    if request._hub_dispositivo is not None:
        return None  # a browser that signed in to this account before: the lock is not for it
    segundos = bloqueos.espera(request, nombre)
    if segundos is None:
        return None
    logger.warning(
        "ingreso protegido, navegador desconocido: usuario=%r ip=%s durante %s s",
        nombre,
        ip_cliente(request),
        segundos,
    )
    return cuenta_protegida(request, segundos)


def limitar_ingreso(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a sign-in view: a POST from an address that spent its failures gets 429, and so does
    one from a browser a locked account does not know; a successful sign-in gets a fresh device
    cookie, and the mail the attempt queued leaves after the answer."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST":
            try:
                rechazo = _antes_de_ingresar(request)
            except CacheNoDisponible:
                logger.error("cache no disponible: ingreso rechazado (falla cerrado)")
                return no_disponible(request)
            if rechazo is not None:
                return rechazo
        respuesta = vista(request, *args, **kwargs)
        usuario = getattr(request, "_hub_ingresado", None)
        if request.method == "POST" and usuario is not None:
            nombre = usuario.get_username().strip().casefold()[:MAX_USUARIO]
            dispositivos.emitir(respuesta, cuenta=nombre)
        return correo.entregar(request, respuesta)

    return envuelta


def limitar_cambio_clave(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap the password change with the sign-in's brake, for the signed-in person's account: a
    wrong current password counts as a failed sign-in (the view sends user_login_failed), and a
    spent window answers 429 before the current password is checked."""
    frenada = limitar_ingreso(vista)

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            request._hub_cuenta = request.user.get_username()
        return frenada(request, *args, **kwargs)

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
