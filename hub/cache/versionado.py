"""The versioned cache: entries that count only under their current generation and seal.

Each cached key has a generation key beside it (`clave:gen`, or one shared by many entries),
replaced (never deleted) on every change, and an entry counts only if it was stored under the
current generation. A plain delete-on-change cache lets a reader on another host that read the
old row just before a commit store it just after that commit's delete; it would then be served
for the whole TTL. With the generation, such an entry carries the generation it read, which the
change has replaced.

Entry keys also carry hub.cache.coherencia's seal (the database's identity and cache generation):
an invalidation the cache never received (hung, unwritable, or restored from an old snapshot)
bumps the generation in the database, and within the bound every process reads other keys;
entries of another database (a restore, a new SQLite file) are never read. The generation keys
beside them carry no seal: an invalidation reaches every process, whichever seal it holds then.

An entry built within a minute of a generation's start lives at most `coherencia.COTA_SEGUNDOS`:
its writer may still be committing, and if it dies between its commit and the invalidation after
it, an old row read just before that commit would otherwise be served for the whole TTL.

Users: the singletons (hub.cache.singleton), the credential rows (hub.cache.credenciales), the
brand and signature verifications. Their keys may come in the request's batch (hub.cache.lote).
"""

from __future__ import annotations

import contextvars
import logging
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError

from hub.cache import coherencia, lote

logger = logging.getLogger(__name__)


# The per-request memo: rows already read during the current request, by model (the global limit
# and a view's own rule both read Limites), and the seal under the Coherencia model (every
# versioned read of a request asks for it, and one request reads all its entries under one seal).
# One request is short, so it sees one value; the next request reads the shared cache again.
_leidos: contextvars.ContextVar[dict[type, Any] | None] = contextvars.ContextVar(
    "hub_singletons_leidos", default=None
)


@contextmanager
def memoria_de_peticion() -> Iterator[None]:
    """Within this block each singleton, and the seal, is read at most once."""
    token = _leidos.set({})
    try:
        yield
    finally:
        _leidos.reset(token)


def memoria() -> dict[type, Any] | None:
    """The current request's memo (None outside `memoria_de_peticion`)."""
    return _leidos.get()


def _sello() -> str:
    """hub.cache.coherencia's seal: once per request within `memoria_de_peticion`, else at each
    call. Raises DatabaseError when the database cannot say (then nothing is kept)."""
    leidos = _leidos.get()
    if leidos is None:
        return coherencia.sello()
    sello = leidos.get(coherencia.Coherencia)
    if sello is None:
        sello = leidos[coherencia.Coherencia] = coherencia.sello()
    return sello


def _olvidar_sello() -> None:
    """The request reads the seal again (its generation was just bumped in the database)."""
    leidos = _leidos.get()
    if leidos is not None:
        leidos.pop(coherencia.Coherencia, None)


def _clave_generacion(clave: str) -> str:
    return f"{clave}:gen"


def _clave_sellada(clave: str, sello: str) -> str:
    return f"{clave}@{sello}"


# A generation this young may belong to a change not yet committed (see the module's docstring).
JOVEN_SEGUNDOS = 60


def _generacion_nueva() -> str:
    return f"{int(time.time())}-{secrets.token_hex(6)}"


def _es_joven(generacion: str) -> bool:
    inicio, _, _ = generacion.partition("-")
    return inicio.isdigit() and time.time() - int(inicio) < JOVEN_SEGUNDOS


def claves_versionado(clave: str, generacion_en: str | None = None) -> list[str]:
    """The keys `leer_versionado` reads: the entry (under this process's seal), its generation."""
    try:
        sello = _sello()
    except DatabaseError:  # nothing to fetch ahead: the read itself will go to the database
        return []
    return [_clave_sellada(clave, sello), generacion_en or _clave_generacion(clave)]


def leer_versionado(clave: str, generacion_en: str | None = None) -> tuple[Any, Any]:
    """(value, generation): the value only if stored under the current generation (one MGET).

    The generation lives beside the key (`clave:gen`), or in `generacion_en` when many entries
    share one (all go stale together). Store what you build on a miss with `guardar_versionado`
    and that same generation (opaque: it also holds the seal), read before building. It is None
    when the cache is down or the database cannot give the seal: then nothing is stored.
    """
    clave_gen = generacion_en or _clave_generacion(clave)
    try:
        sello = _sello()
    except DatabaseError:  # the caller reads the database, which answers for itself
        return None, None
    sellada = _clave_sellada(clave, sello)
    try:
        leidas = _leer(sellada, clave_gen)
        generacion = leidas.get(clave_gen)
        if generacion is None:  # first use, or evicted: start one (another host may win)
            lote.olvidar(clave_gen)
            cache.add(clave_gen, _generacion_nueva(), None)
            generacion = cache.get(clave_gen)
    except Exception:  # a dead cache must not stop reads: the caller falls back to the database
        logger.warning("cache no disponible al leer %s", clave)
        return None, None
    if generacion is None or not coherencia.vigente(sello):
        return None, None  # (a restarted Redis met while reading: the database answers)
    entrada = leidas.get(sellada)
    if isinstance(entrada, tuple) and len(entrada) == 2 and entrada[0] == generacion:
        return entrada[1], (sellada, generacion)
    return None, (sellada, generacion)


def _leer(sellada: str, clave_gen: str) -> dict[str, Any]:
    """The entry and its generation: from the request's batch when it fetched both, else one
    MGET."""
    entrada, generacion = lote.leido(sellada), lote.leido(clave_gen)
    if entrada is lote.NO_PEDIDA or generacion is lote.NO_PEDIDA:
        return cache.get_many([sellada, clave_gen])
    return {k: v for k, v in ((sellada, entrada), (clave_gen, generacion)) if v is not lote.FALTA}


def guardar_versionado(clave: str, valor: Any, generacion: Any, ttl: int) -> None:
    """Cache `valor` under the generation (and seal) read before it was built."""
    if generacion is None:
        return
    sellada, generacion = generacion
    if isinstance(generacion, str) and _es_joven(generacion):
        ttl = min(ttl, coherencia.COTA_SEGUNDOS)
    lote.olvidar(sellada)
    try:
        cache.set(sellada, (generacion, valor), ttl)
    except Exception:
        logger.warning("cache no disponible al guardar %s", clave)


def invalidar_versionado(clave: str, *, es_generacion: bool = False) -> None:
    """A new generation: every entry stored before (or being built now) stops counting.

    `clave` is the entry's key, or with `es_generacion` a generation shared by many entries. When
    the cache does not take it, the database's generation is bumped instead (in the caller's
    transaction, if any): every process stops reading what it cached within the bound.
    """
    clave_gen = clave if es_generacion else _clave_generacion(clave)
    lote.olvidar(clave_gen)
    try:
        if cache.set(clave_gen, _generacion_nueva(), None) is False:  # diskcache's refusal
            raise OSError("la caché no guardó la generación")
    except Exception:
        logger.warning("cache no disponible al invalidar %s", clave)
        coherencia.avanzar_o_avisar(f"invalidación perdida de {clave}")
        _olvidar_sello()
