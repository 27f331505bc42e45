"""Calls refused before a tool runs (401, 403, 429 at the assistant endpoint), counted per minute.

An attack must never become one database write per request, so a refusal is counted in the
shared cache and the database holds one row per (minute, who, status, code):
- each refusal is one INCR of that minute's counter; the refusal that creates the counter (its
  `add`) inserts the row (`veces` 1, `pendiente`): the pending rows are the list of counters;
- `volcar` reads the pending rows' counters (one get_many per batch) and writes them, never
  lowering a count; a row whose minute ended a whole minute ago is closed. It runs on a later
  minute's first refusal (one process per minute, elected with `add`), before the admin list and
  uso_asistente show the counts, and in `manage.py mantenimiento`;
- who: the person and/or the API key when the credentials said so (403 without access, 429 of
  the endpoint's limits), otherwise the client's address as the per-address limits count it (an
  IPv6 host by its /64: rotating addresses inside it does not make more rows);
- a counter lost (evicted, Redis restarted) starts again at 1: that minute's counts so far are
  lost, never more, and its row stays;
- with the cache down nothing raises and the answer is the same: each process inserts the row of
  a (minute, who, status, code) the first time it sees it, so the refusal is seen (`veces` 1)
  though its count is not.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.core.cache import cache
from django.db.models import BooleanField, Case, F, PositiveIntegerField, Value, When
from django.db.models.functions import Greatest
from django.http import HttpRequest
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp.models import ClaveApi, RechazoAsistente
from hub.http.limites import clave_ip
from hub.http.respuestas import ErrorAPI

logger = logging.getLogger(__name__)

CONTADOS = frozenset({401, 403, 429})
PREFIJO = "mcp:rechazo"
# A pending counter waits for a later refusal, the admin, uso_asistente or the daily maintenance.
VIDA = 2 * 24 * 3600
LOTE = 200


class Quien(Protocol):
    """Who the credentials said is calling: an Identidad, or credenciales.SinAcceso."""

    usuario: User | None
    clave: ClaveApi | None


class Proceso:
    """What one process remembers: the last minute it flushed, and (cache down) the counters of
    the current minute whose row it already inserted."""

    def __init__(self) -> None:
        self.volcado: datetime | None = None
        self.minuto: datetime | None = None
        self.vistos: set[str] = set()

    def primera_vez(self, minuto: datetime, llave: str) -> bool:
        if minuto != self.minuto:
            self.minuto, self.vistos = minuto, set()
        if llave in self.vistos:
            return False
        self.vistos.add(llave)
        return True


PROCESO = Proceso()


def minuto_actual() -> datetime:
    return timezone.now().replace(second=0, microsecond=0)


def _llave(minuto: datetime, quien: str, estado: int, codigo: str) -> str:
    # No spaces: Django warns about keys a memcached could not hold.
    return f"{PREFIJO}:{int(minuto.timestamp())}:{quien.replace(' ', '-')}:{estado}:{codigo}"


def llave_cache(fila: RechazoAsistente) -> str:
    """The cache counter of a row's minute, who, status and code."""
    return _llave(fila.minuto, fila.quien, fila.estado, fila.codigo)


def _quien(request: HttpRequest, usuario: User | None, clave: ClaveApi | None) -> tuple[str, str]:
    """(counting key, address kept): the person and/or key when known, else the address."""
    partes = [
        f"u{usuario.pk}" if usuario is not None else "",
        f"k{clave.pk}" if clave is not None else "",
    ]
    if any(partes):
        return "".join(partes), ""
    direccion = clave_ip(request)
    return f"ip {direccion}", direccion


def anotar(request: HttpRequest, error: ErrorAPI, *, quien: Quien | None = None) -> None:
    """Count one refused call under `quien`, or the address when None; never raises."""
    if error.status not in CONTADOS:
        return
    try:
        _anotar(request, error.status, error.code[:40], quien)
    except Exception:  # the refusal is answered whatever happens to its count
        logger.exception("no se pudo contar un rechazo del asistente")


def _anotar(request: HttpRequest, estado: int, codigo: str, quien: Quien | None) -> None:
    usuario = quien.usuario if quien is not None else None
    clave_api = quien.clave if quien is not None else None
    texto, direccion = _quien(request, usuario, clave_api)
    minuto = minuto_actual()
    llave = _llave(minuto, texto, estado, codigo)
    fila = RechazoAsistente(
        minuto=minuto,
        quien=texto,
        usuario=usuario,
        clave=clave_api,
        direccion=direccion,
        estado=estado,
        codigo=codigo,
    )
    try:
        nuevo = _contar(llave)
    except Exception:  # the cache cannot count: seen once per process and minute
        if PROCESO.primera_vez(minuto, llave):
            RechazoAsistente.objects.bulk_create([fila], ignore_conflicts=True)
        return
    if nuevo:
        # A lost counter made again finds its row there: nothing is inserted twice.
        RechazoAsistente.objects.bulk_create([fila], ignore_conflicts=True)
    if PROCESO.volcado != minuto:
        PROCESO.volcado = minuto
        if cache.add(f"{PREFIJO}:volcado:{int(minuto.timestamp())}", 1, 300):
            volcar(minuto)


def _contar(llave: str) -> bool:
    """One more on the counter; True when this call created it."""
    try:
        cache.incr(llave)
        return False
    except ValueError:  # no counter yet
        pass
    if cache.add(llave, 1, VIDA):
        return True
    cache.incr(llave)  # another process created it meanwhile
    return False


def volcar(minuto: datetime | None = None) -> int:
    """Write the cache's counts into the pending rows; close those over; how many closed.

    With the cache down the rows stay pending (a later flush writes them), and nothing raises.
    """
    corte = (minuto or minuto_actual()) - timedelta(minutes=1)
    cerradas = 0
    ultimo = 0
    while True:
        filas = list(
            RechazoAsistente.objects.pendientes().filter(pk__gt=ultimo).order_by("pk")[:LOTE]
        )
        if not filas:
            return cerradas
        ultimo = filas[-1].pk
        try:
            conteos = cache.get_many([llave_cache(f) for f in filas])
        except Exception:
            logger.warning("caché no disponible: los conteos de rechazos siguen pendientes")
            return cerradas
        veces: dict[int, int] = {}
        cerrar: list[int] = []
        for fila in filas:
            conteo = conteos.get(llave_cache(fila))
            if isinstance(conteo, int) and conteo > fila.veces:
                veces[fila.pk] = conteo
            if fila.minuto < corte:
                cerrar.append(fila.pk)
        if veces or cerrar:
            _escribir(veces, cerrar)
        cerradas += len(cerrar)
        if len(filas) < LOTE:
            return cerradas


def _escribir(veces: dict[int, int], cerrar: list[int]) -> None:
    """One UPDATE for a batch; a count only grows (a slower flusher may have read less)."""
    cambios: dict[str, Any] = {}
    if veces:
        cambios["veces"] = Greatest(
            F("veces"),
            Case(
                *(When(pk=pk, then=Value(n)) for pk, n in veces.items()),
                default=F("veces"),
                output_field=PositiveIntegerField(),
            ),
        )
    if cerrar:
        cambios["pendiente"] = Case(
            When(pk__in=cerrar, then=Value(False)),
            default=F("pendiente"),
            output_field=BooleanField(),
        )
    RechazoAsistente.objects.filter(pk__in=[*veces, *cerrar]).update(**cambios)
