"""A new secret (personal token, API key) shown exactly once, resting nowhere in clear.

The POST that creates it redirects (post/redirect/get), so a reload never creates a second one.
Across that redirect the secret is split in two halves, each useless alone: a one-time pad in a
short-lived cookie that only the person's browser holds, and the secret XOR that pad in the
session (which lives in the database). The GET that shows it takes both and removes both; a
reload finds neither, and a copied session table or a copied cookie reveals nothing.
"""

from __future__ import annotations

import base64
import hmac
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from hub import secretos

DURACION = 300  # seconds the halves wait for the page that shows the secret


def _xor(datos: bytes, clave: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(datos, clave, strict=True))


def _b64(datos: bytes) -> str:
    return base64.urlsafe_b64encode(datos).decode("ascii")


def _de_b64(texto: str) -> bytes:
    return base64.urlsafe_b64decode(texto.encode("ascii"))


@dataclass(frozen=True)
class Pendiente:
    """What the session held: which object, and its secret XOR the browser's pad."""

    ident: int
    cifrado: str
    creado: float


@dataclass(frozen=True)
class Entrega:
    """One kind of secret delivered to one page (`ruta` is the cookie's path)."""

    nombre: str
    ruta: str

    @property
    def _clave(self) -> str:
        return f"hub_entrega_{self.nombre}"

    def guardar(
        self, request: HttpRequest, response: HttpResponse, *, ident: int, secreto: str
    ) -> None:
        """Split `secreto` between the session and a cookie set on the redirect `response`."""
        datos = secreto.encode("utf-8")
        pad = secrets.token_bytes(len(datos))
        request.session[self._clave] = {
            "id": ident,
            "cifrado": _b64(_xor(datos, pad)),
            "creado": time.time(),
        }
        response.set_cookie(
            self._clave,
            _b64(pad),
            max_age=DURACION,
            path=self.ruta,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Strict",
        )

    def pendiente(self, request: HttpRequest) -> Pendiente | None:
        """Take (and remove) the session's half; None when nothing waits to be shown."""
        entrada = request.session.pop(self._clave, None)
        if not isinstance(entrada, dict):
            return None
        try:
            return Pendiente(
                ident=int(entrada["id"]),
                cifrado=str(entrada["cifrado"]),
                creado=float(entrada["creado"]),
            )
        except (KeyError, TypeError, ValueError):
            return None

    def revelar(self, request: HttpRequest, pendiente: Pendiente, digest: str) -> str | None:
        """The secret, if the browser's half is here, in time, and joins into `digest`'s secret."""
        pad = request.COOKIES.get(self._clave)
        if pad is None or time.time() - pendiente.creado > DURACION:
            return None
        try:
            secreto = _xor(_de_b64(pendiente.cifrado), _de_b64(pad)).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return None
        if not hmac.compare_digest(secretos.huella(secreto), digest):
            return None
        return secreto

    def cerrar(self, request: HttpRequest, response: HttpResponse) -> None:
        """Remove the browser's half, if it came."""
        if self._clave in request.COOKIES:
            response.delete_cookie(self._clave, path=self.ruta, samesite="Strict")
