"""Confirmation tokens of two-step writes (DESIGN 9).

A token is a `django.core.signing` value (timestamped, salted for this purpose) carrying a random
id, the user, the credential, the tool and the SHA-256 of the canonical arguments. Step 2 checks
all of it, then inserts the id into `ConfirmacionUsada` (primary key) inside the write's own
transaction: a token executes at most once, whatever the number of hosts.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

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


def emitir(identidad: Identidad, herramienta: str, datos: dict[str, Any]) -> str:
    """A new single-use confirmation token for these exact arguments."""
    carga = {
        "j": secrets.token_hex(16),
        "u": identidad.usuario.pk if identidad.usuario is not None else None,
        "c": identidad.credencial_id,
        "h": herramienta,
        "d": huella_argumentos(datos),
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


def _credencial_caducada(credencial_id: str) -> bool:
    """True when the step-1 credential was a personal token that is no longer valid."""
    if not credencial_id.startswith("t") or not credencial_id[1:].isdigit():
        return False
    token = TokenPersonal.objects.filter(pk=int(credencial_id[1:])).first()
    return token is None or not token.vigente()


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
    if not isinstance(carga, dict) or not {"j", "u", "c", "h", "d"} <= set(carga):
        raise ErrorHerramienta("CONFIRMACION_INVALIDA", "El token de confirmación no es válido.")
    usuario_id = identidad.usuario.pk if identidad.usuario is not None else None
    if carga["u"] != usuario_id:
        raise ErrorHerramienta(
            "CONFIRMACION_AJENA", "El token de confirmación fue emitido para otra persona."
        )
    if carga["c"] != identidad.credencial_id:
        if _credencial_caducada(str(carga["c"])):
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
                jti=str(carga["j"])[:32], herramienta=carga["h"], usuario=identidad.usuario
            )
    except IntegrityError:
        raise ErrorHerramienta(
            "CONFIRMACION_USADA",
            "Ese token de confirmación ya se usó. La operación no se repitió.",
        ) from None
