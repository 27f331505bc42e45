"""Confirmation tokens of two-step writes (DESIGN 9).

A token is a `django.core.signing` value (timestamped, salted for this purpose) carrying a random
id, the user, the credential, the tool, the SHA-256 of the canonical arguments and its expiry.
A signed value is readable by anyone (base64 of JSON), so the user and the credential travel as
keyed digests (HMAC with SECRET_KEY), never as their internal ids. Step 2 checks all of it, then
inserts the id into `ConfirmacionUsada` (primary key) inside the write's own transaction: a token
executes at most once, whatever the number of hosts. The row keeps the token's expiry: after it
the token cannot be presented any more, and the maintenance command deletes the row.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from apps.mcp.credenciales import Identidad
from apps.mcp.models import ConfirmacionUsada, TokenPersonal
from apps.mcp.registro import ErrorHerramienta
from hub.respuestas import a_json

SAL = "apps.mcp.confirmacion.v1"
LARGO_MAXIMO = 600


def huella_argumentos(datos: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON (sorted keys) of the validated arguments."""
    canonico = dict(sorted(datos.items()))
    return hashlib.sha256(a_json(_ordenado(canonico))).hexdigest()


def _ordenado(valor: Any) -> Any:
    if isinstance(valor, dict):
        return {k: _ordenado(valor[k]) for k in sorted(valor)}
    if isinstance(valor, list | tuple):
        return [_ordenado(v) for v in valor]
    return valor


def _huella(clase: str, valor: Any) -> str:
    """A keyed digest of an internal id: comparable by the server, meaningless to a reader."""
    return salted_hmac(f"{SAL}.{clase}", str(valor), algorithm="sha256").hexdigest()[:32]


def _huella_usuario(identidad: Identidad) -> str:
    return _huella("u", identidad.usuario.pk if identidad.usuario is not None else "")


def emitir(identidad: Identidad, herramienta: str, datos: dict[str, Any], *, segundos: int) -> str:
    """A new single-use confirmation token for these exact arguments, valid `segundos`."""
    carga = {
        "j": secrets.token_hex(16),
        "u": _huella_usuario(identidad),
        "c": _huella("c", identidad.credencial_id),
        "h": herramienta,
        "d": huella_argumentos(datos),
        # Fixed at issue: a longer validity set later cannot revive it, so its row can go.
        "v": int(time.time()) + segundos,
    }
    token = signing.dumps(carga, salt=SAL, compress=False)
    if len(token) > LARGO_MAXIMO:  # pragma: no cover - the payload has a fixed size
        raise RuntimeError("token de confirmación demasiado largo")
    return token


def vence_en(segundos: int) -> str:
    """Local expiry time of a token issued now, `YYYY-MM-DD HH:MM`."""
    return timezone.localtime(timezone.now() + timedelta(seconds=segundos)).strftime(
        "%Y-%m-%d %H:%M"
    )


def _credencial_caducada(huella: str, identidad: Identidad) -> bool:
    """True when the step-1 credential was one of this person's tokens and is no longer valid
    (revoked, expired or deleted); False when it is another credential still in force."""
    for token in TokenPersonal.objects.filter(usuario=identidad.usuario):
        if constant_time_compare(_huella("c", f"t{token.pk}"), huella):
            return not token.vigente()
    return True


def verificar(
    token: str, identidad: Identidad, herramienta: str, datos: dict[str, Any], segundos: int
) -> dict[str, Any]:
    """The token's payload when it may confirm this call; ErrorHerramienta otherwise."""
    try:
        carga = signing.loads(token, salt=SAL, max_age=segundos)
    except signing.SignatureExpired:
        raise ErrorHerramienta(
            "CONFIRMACION_VENCIDA",
            "El token de confirmación venció. Pida una nueva vista previa (sin confirmar).",
        ) from None
    except signing.BadSignature:
        raise ErrorHerramienta(
            "CONFIRMACION_INVALIDA",
            "El token de confirmación no es válido. Pida una nueva vista previa.",
        ) from None
    if not isinstance(carga, dict) or not {"j", "u", "c", "h", "d", "v"} <= set(carga):
        raise ErrorHerramienta("CONFIRMACION_INVALIDA", "El token de confirmación no es válido.")
    if not isinstance(carga["v"], int) or time.time() > carga["v"]:
        raise ErrorHerramienta(
            "CONFIRMACION_VENCIDA",
            "El token de confirmación venció. Pida una nueva vista previa (sin confirmar).",
        )
    if not constant_time_compare(str(carga["u"]), _huella_usuario(identidad)):
        raise ErrorHerramienta(
            "CONFIRMACION_AJENA", "El token de confirmación fue emitido para otra persona."
        )
    if not constant_time_compare(str(carga["c"]), _huella("c", identidad.credencial_id)):
        if _credencial_caducada(str(carga["c"]), identidad):
            raise ErrorHerramienta(
                "SESION_EXPIRADA",
                "El token personal con que se pidió la vista previa venció o fue revocado. "
                "Pida una nueva vista previa.",
            )
        raise ErrorHerramienta(
            "CONFIRMACION_AJENA", "El token de confirmación fue emitido para otra credencial."
        )
    if carga["h"] != herramienta or carga["d"] != huella_argumentos(datos):
        raise ErrorHerramienta(
            "CONFIRMACION_NO_COINCIDE",
            "El token de confirmación corresponde a otra operación o a otros argumentos. "
            "Repita exactamente los argumentos de la vista previa.",
        )
    return carga


def consumir(carga: dict[str, Any], identidad: Identidad) -> None:
    """Mark the token used; must run inside the write's transaction (unique id, at most once)."""
    try:
        with transaction.atomic():
            ConfirmacionUsada.objects.create(
                jti=str(carga["j"])[:32],
                herramienta=carga["h"],
                usuario=identidad.usuario,
                vence=datetime.fromtimestamp(carga["v"], tz=UTC),
            )
    except IntegrityError:
        raise ErrorHerramienta(
            "CONFIRMACION_USADA",
            "Ese token de confirmación ya se usó. La operación no se repitió.",
        ) from None
