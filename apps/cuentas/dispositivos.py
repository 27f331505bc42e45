"""Device cookies (OWASP, "Slow down online guessing attacks with device cookies").

A browser that signs in to an account gets a cookie binding it to that account: a random nonce
signed with the server's key, with the account in the signature's salt (never in the value) and a
timestamp, so it proves "this browser signed in to this account, not long ago" and nothing else.
While an account is locked for unknown browsers (apps.cuentas.bloqueos), a valid cookie of that
account still lets its browser try; the cookie's nonce keys its own budget of failures.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

_SAL = "apps.cuentas.dispositivo"


def nombre_cookie(cuenta: str) -> str:
    """One cookie per account a browser signed in to; a keyed digest names it, not the account."""
    return "hub_dispositivo_" + salted_hmac(_SAL + ".nombre", cuenta).hexdigest()[:16]


def _firmador(cuenta: str) -> signing.TimestampSigner:
    # The account is in the salt: a cookie signed for another account never validates here.
    return signing.TimestampSigner(salt=f"{_SAL}:{cuenta}")


def _vida() -> timedelta:
    return timedelta(days=settings.HUB_INGRESO_DISPOSITIVO_DIAS)


def emitir(respuesta: HttpResponse, *, cuenta: str) -> None:
    """Set a fresh device cookie for `cuenta` (at each successful sign-in)."""
    respuesta.set_cookie(
        nombre_cookie(cuenta),
        _firmador(cuenta).sign(secrets.token_urlsafe(16)),
        max_age=int(_vida().total_seconds()),
        path="/",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def reconocido(request: HttpRequest, cuenta: str) -> str | None:
    """The nonce of this browser's valid, unexpired device cookie for `cuenta`, or None."""
    valor = request.COOKIES.get(nombre_cookie(cuenta))
    if not valor:
        return None
    try:
        return _firmador(cuenta).unsign(valor, max_age=_vida())
    except signing.BadSignature:  # forged, altered, another account's, or expired
        return None
