"""Log lines: one JSON object per line (or plain text in development), with the request id."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest


@dataclass(frozen=True)
class Peticion:
    """What every log line written while a request is served says about it."""

    request_id: str
    # The X-Request-ID that arrived (a proxy's or a client's), kept beside ours, never as ours.
    request_id_recibido: str
    method: str
    path: str
    ip: str


_peticion: contextvars.ContextVar[Peticion | None] = contextvars.ContextVar(
    "hub_peticion", default=None
)

# A received id is kept only if it looks like one (nginx $request_id, a UUID, ...). No "_":
# our credentials (sgimcp_…, sgiapi_…) can never pass as a request id and reach the logs.
_ID_SEGURO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.:-]{7,63}$")
MAX_RUTA = 500
# Path segments that are secrets: the token of a password-reset link (Django's
# PasswordResetTokenGenerator: base36 time, "-", 32 hex; the link works until it is used or
# expires) and any credential of the hub's own format (sgimcp_…, sgiapi_…, sgioat_…).
_SEGMENTO_SECRETO = re.compile(
    r"(?<=/)(?:[0-9a-z]{1,13}-[0-9a-f]{32}|sgi[a-z]{3}_[0-9A-Za-z]{20,})(?=[/\s?]|$)"
)

# Attributes every LogRecord has: anything else on a record came from `extra=` and is logged.
_ESTANDAR = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}


def sin_secretos(ruta_o_uri: str) -> str:
    """A path (or a request line) with its secret segments replaced by "[oculto]"."""
    return _SEGMENTO_SECRETO.sub("[oculto]", ruta_o_uri)


class FiltroSinSecretos(logging.Filter):
    """On django.request: a line that names a path with a secret segment (Django's own
    "Internal Server Error: <path>" for a password-reset link) is written with it hidden."""

    def filter(self, record: logging.LogRecord) -> bool:
        mensaje = record.getMessage()
        limpio = sin_secretos(mensaje)
        if limpio != mensaje:
            record.msg, record.args = limpio, None
        return True


def ruta(request: HttpRequest) -> str:
    """The path as every log line writes it: cut to MAX_RUTA, secret segments hidden."""
    return sin_secretos(request.path[:MAX_RUTA])


def request_id_actual() -> str:
    """The id of the request being served in this context, or "" outside a request."""
    actual = _peticion.get()
    return actual.request_id if actual is not None else ""


def request_id_recibido_actual() -> str:
    """The safe X-Request-ID the request being served arrived with, or ""."""
    actual = _peticion.get()
    return actual.request_id_recibido if actual is not None else ""


def _recibido(request: HttpRequest) -> str:
    """The incoming X-Request-ID when it is short and safe; "" otherwise.

    Whoever sent it (a proxy or the client itself), it is not ours: our id is always new, so no
    client can make its requests share an id with someone else's in the logs or the audit.
    """
    entrante = request.META.get("HTTP_X_REQUEST_ID", "")
    return entrante if _ID_SEGURO.fullmatch(entrante) else ""


def iniciar(request: HttpRequest, *, ip: str) -> contextvars.Token:
    """Open the request's logging context; `terminar` closes it. The client's address comes
    from the caller (hub.http.ip decides it once per request): logging does not work it out."""
    peticion = Peticion(
        request_id=uuid.uuid4().hex,
        request_id_recibido=_recibido(request),
        method=request.method or "",
        # The path only: a query string can carry secrets, headers are never logged.
        path=ruta(request),
        ip=ip,
    )
    request.request_id = peticion.request_id
    request.ruta_registrada = peticion.path  # the access line writes it too: worked out once
    return _peticion.set(peticion)


def terminar(token: contextvars.Token) -> None:
    _peticion.reset(token)


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    # Django's loggers attach the request itself: its repr has the query string, so it stays out.
    return {
        k: v
        for k, v in vars(record).items()
        if k not in _ESTANDAR and not k.startswith("_") and not isinstance(v, HttpRequest)
    }


class FormatoJSON(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's fields, extras."""

    def format(self, record: logging.LogRecord) -> str:
        linea: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        peticion = _peticion.get()
        if peticion is not None:
            linea["request_id"] = peticion.request_id
            if peticion.request_id_recibido:
                linea["request_id_recibido"] = peticion.request_id_recibido
            linea.update(method=peticion.method, path=peticion.path, ip=peticion.ip)
        for clave, valor in _extras(record).items():
            linea.setdefault(clave, valor)
        if record.exc_info:
            linea["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            linea["stack"] = self.formatStack(record.stack_info)
        # default=str: an odd extra (a model, a Decimal) is written, never breaks the line.
        return json.dumps(linea, ensure_ascii=False, default=str)


class FormatoTexto(logging.Formatter):
    """Human-readable line for development, with the request id when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record.request_id = request_id_actual() or "-"
        try:
            return super().format(record)
        finally:
            del record.request_id
