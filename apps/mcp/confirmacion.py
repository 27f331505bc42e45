"""Confirmation tokens of two-step writes (docs/decisiones/asistente.md).

A token is a Fernet token (`cryptography`: AES-128-CBC then HMAC-SHA256, authenticated) of a JSON
payload: a random id, the user's id, the credential's id, the tool, the SHA-256 of the canonical
arguments, the issue time and the expiry. Nothing in it is readable without the server's key:
  - the key is derived from SECRET_KEY with HKDF-SHA256 and this module's purpose, and one per
    SECRET_KEY_FALLBACKS opens tokens issued before a rotation (MultiFernet);
  - Fernet writes its creation time in clear: it is written as 0, the times travel inside;
  - the token is the canonical unpadded base64: a character changed that a lenient decoder would
    read as the same bytes is refused all the same.
Step 2 checks all of it, then inserts the id into `ConfirmacionUsada` (primary key) inside the
write's own transaction: a token executes at most once, whatever the number of hosts. The row keeps
the token's expiry: after it the token cannot be presented any more, and the maintenance command
deletes the row.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes

from apps.mcp.credenciales import TIPOS, Identidad
from apps.mcp.models import ConfirmacionUsada
from hub.herramientas.registro import ErrorHerramienta
from hub.http.respuestas import a_json

PROPOSITO = b"apps.mcp.confirmacion.v2"
LARGO_MAXIMO = 600
# The used-token table's column: a longer tool name could not be spent.
LARGO_HERRAMIENTA = ConfirmacionUsada._meta.get_field("herramienta").max_length
_CAMPOS = {"j": str, "u": int, "c": str, "h": str, "d": str, "e": int, "v": int}


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


@functools.lru_cache(maxsize=8)
def _fernet(claves: tuple[str, ...]) -> MultiFernet:
    """One Fernet key per secret (the first encrypts, all decrypt), each derived for this use."""
    return MultiFernet(
        [
            Fernet(
                base64.urlsafe_b64encode(
                    HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PROPOSITO).derive(
                        force_bytes(clave)
                    )
                )
            )
            for clave in claves
        ]
    )


def _cifrador() -> MultiFernet:
    return _fernet((settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS))


def cifrar(carga: Any) -> str:
    """The payload sealed with the server's key: canonical base64 without padding."""
    sellado = _cifrador().encrypt_at_time(a_json(carga), 0)
    return sellado.rstrip(b"=").decode("ascii")


def descifrar(token: str) -> Any:
    """The payload of a token sealed with the server's key (or a fallback); None otherwise."""
    if not token.isascii():
        return None
    try:
        crudo = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    canonico = base64.urlsafe_b64encode(crudo)
    if canonico.rstrip(b"=").decode("ascii") != token:
        return None
    try:
        return json.loads(_cifrador().decrypt(canonico))
    except (InvalidToken, ValueError):
        return None


def emitir(identidad: Identidad, herramienta: str, datos: dict[str, Any], *, segundos: int) -> str:
    """A new single-use confirmation token for these exact arguments, valid `segundos`."""
    return emitir_con_carga(identidad, herramienta, datos, segundos=segundos)[0]


def emitir_con_carga(
    identidad: Identidad, herramienta: str, datos: dict[str, Any], *, segundos: int
) -> tuple[str, dict[str, Any]]:
    """The new token and its payload (its id and expiry key the approval on the hub)."""
    if len(herramienta) > LARGO_HERRAMIENTA:
        raise ValueError(f"nombre de herramienta de más de {LARGO_HERRAMIENTA} caracteres")
    ahora = int(time.time())
    carga = {
        "j": secrets.token_hex(16),
        "u": identidad.usuario.pk if identidad.usuario is not None else 0,
        "c": identidad.credencial_id,
        "h": herramienta,
        "d": huella_argumentos(datos),
        "e": ahora,
        # Fixed at issue: a longer validity set later cannot revive it, so its row can go.
        "v": ahora + segundos,
    }
    token = cifrar(carga)
    if len(token) > LARGO_MAXIMO:  # pragma: no cover - bounded by the fields' sizes (tested)
        raise RuntimeError("token de confirmación demasiado largo")
    return token, carga


def vence_en(segundos: int) -> str:
    """Local expiry time of a token issued now, `YYYY-MM-DD HH:MM`."""
    return timezone.localtime(timezone.now() + timedelta(seconds=segundos)).strftime(
        "%Y-%m-%d %H:%M"
    )


def _credencial_caducada(credencial: str, identidad: Identidad) -> bool:
    """True when the step-1 credential no longer stands for this person (revoked, expired,
    deleted, or never one of theirs); False when it is another credential still in force. Its
    kind, from the credential table, reads the id and says."""
    for tipo in TIPOS:
        if (pk := tipo.id_de(credencial)) is not None:
            return not tipo.vigente_para(pk, identidad.usuario)
    return True


def _vencida() -> ErrorHerramienta:
    return ErrorHerramienta(
        "CONFIRMACION_VENCIDA",
        "El token de confirmación venció. Pida una nueva vista previa (sin confirmar).",
    )


def _bien_formada(carga: Any) -> bool:
    return isinstance(carga, dict) and all(
        isinstance(carga.get(campo), tipo) and not isinstance(carga.get(campo), bool)
        for campo, tipo in _CAMPOS.items()
    )


def verificar(
    token: str, identidad: Identidad, herramienta: str, datos: dict[str, Any], segundos: int
) -> dict[str, Any]:
    """The token's payload when it may confirm this call; ErrorHerramienta otherwise."""
    carga = descifrar(token)
    if not _bien_formada(carga):
        raise ErrorHerramienta(
            "CONFIRMACION_INVALIDA",
            "El token de confirmación no es válido. Pida una nueva vista previa.",
        )
    ahora = time.time()
    # Its own expiry, and the validity in force now: a shorter one set later shortens it.
    if ahora > carga["v"] or ahora > carga["e"] + segundos:
        raise _vencida()
    usuario = identidad.usuario.pk if identidad.usuario is not None else 0
    if carga["u"] != usuario:
        raise ErrorHerramienta(
            "CONFIRMACION_AJENA", "El token de confirmación fue emitido para otra persona."
        )
    if not constant_time_compare(carga["c"], identidad.credencial_id):
        if _credencial_caducada(carga["c"], identidad):
            raise ErrorHerramienta(
                "SESION_EXPIRADA",
                "El token con que se pidió la vista previa venció o fue revocado. "
                "Pida una nueva vista previa.",
            )
        raise ErrorHerramienta(
            "CONFIRMACION_AJENA", "El token de confirmación fue emitido para otra credencial."
        )
    if carga["h"] != herramienta or not constant_time_compare(carga["d"], huella_argumentos(datos)):
        raise ErrorHerramienta(
            "CONFIRMACION_NO_COINCIDE",
            "El token de confirmación corresponde a otra operación o a otros argumentos. "
            "Repita exactamente los argumentos de la vista previa.",
        )
    return carga


def vence_de(carga: dict[str, Any]) -> datetime:
    """The token's own expiry, as a date."""
    return datetime.fromtimestamp(carga["v"], tz=UTC)


def consumir(carga: dict[str, Any], identidad: Identidad) -> None:
    """Mark the token used; must run inside the write's transaction (unique id, at most once)."""
    try:
        with transaction.atomic():
            ConfirmacionUsada.objects.create(
                jti=str(carga["j"])[:32],
                herramienta=carga["h"],
                usuario=identidad.usuario,
                vence=vence_de(carga),
            )
    except IntegrityError:
        raise ErrorHerramienta(
            "CONFIRMACION_USADA",
            "Ese token de confirmación ya se usó. La operación no se repitió.",
        ) from None
