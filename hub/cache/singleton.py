"""Singleton models (one row per organization) read through the shared cache.

Entries are versioned: each cached key has a generation key beside it, replaced (never deleted)
on every change, and an entry counts only if it was stored under the current generation. A plain
delete-on-change cache lets a reader on another host that read the old row just before a commit
store it just after that commit's delete; it would then be served for the whole TTL. With the
generation, such an entry carries the generation it read, which the change has replaced.

Entry keys also carry hub.cache.coherencia's seal (the database's identity and cache generation): an
invalidation the cache never received (hung, unwritable, or restored from an old snapshot) bumps
the generation in the database, and within the bound every process reads other keys; entries of
another database (a restore, a new SQLite file) are never read. The generation keys beside them
carry no seal: an invalidation reaches every process, whichever seal it holds at that moment.

An entry built within a minute of a generation's start lives at most `coherencia.COTA_SEGUNDOS`:
its writer may still be committing, and if it dies between its commit and the invalidation after
it, an old row read just before that commit would otherwise be served for the whole TTL.
"""

from __future__ import annotations

import contextvars
import logging
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Self

from django.core.cache import cache
from django.db import DatabaseError, models, transaction

from hub.cache import coherencia

logger = logging.getLogger(__name__)


# Rows already read during the current request: the global limit and a view's own rule both read
# Limites, and each read would be a cache round trip. One request is short, so it sees one value;
# the next request reads the shared cache again (a change on another host is seen at once). The
# seal (hub.cache.coherencia) is kept here too, under the Coherencia model: every versioned read of
# a
# request asks for it, and one request reads all its entries under one seal.
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


# The last value of each singleton this process read: the guess for the next request's one round
# trip (hub.cache.precarga), never an answer (a request's answers come from the shared cache).
_vistos: dict[type, Any] = {}
_prediciendo: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "hub_singletons_prediciendo", default=False
)


@contextmanager
def prediccion() -> Iterator[None]:
    """Within this block `cargar()` gives this process's last value, without reading the cache.

    For guessing only (which rate-limit keys a request will count, see hub.cache.precarga).
    """
    token = _prediciendo.set(True)
    try:
        yield
    finally:
        _prediciendo.reset(token)


def _sello() -> str:
    """hub.cache.coherencia's seal: once per request within `memoria_de_peticion`, else at each
    call.

    Raises DatabaseError when the database cannot say (then nothing is kept: the next read asks).
    """
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


def _copia(fila: Any) -> Any:
    """A shallow copy of a singleton row (plain fields only): copy.copy() of a model instance goes
    through pickling's protocol and cost a tenth of a ping."""
    nueva = object.__new__(type(fila))
    nueva.__dict__.update(fila.__dict__)
    nueva._state = models.base.ModelState()
    nueva._state.db, nueva._state.adding = fila._state.db, fila._state.adding
    return nueva


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
        leidas = cache.get_many([sellada, clave_gen])
        generacion = leidas.get(clave_gen)
        if generacion is None:  # first use, or evicted: start one (another host may win)
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


def guardar_versionado(clave: str, valor: Any, generacion: Any, ttl: int) -> None:
    """Cache `valor` under the generation (and seal) read before it was built."""
    if generacion is None:
        return
    sellada, generacion = generacion
    if isinstance(generacion, str) and _es_joven(generacion):
        ttl = min(ttl, coherencia.COTA_SEGUNDOS)
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
    try:
        if cache.set(clave_gen, _generacion_nueva(), None) is False:  # diskcache's refusal
            raise OSError("la caché no guardó la generación")
    except Exception:
        logger.warning("cache no disponible al invalidar %s", clave)
        coherencia.avanzar_o_avisar(f"invalidación perdida de {clave}")
        _olvidar_sello()


class ModeloUnico(models.Model):
    """Abstract base: the row with pk=1, cached under one key and dropped from cache on save.

    Several processes and hosts read it, so the copy lives in the shared cache (Redis in
    production), never in process memory: a change made on one host is seen on all at once.
    """

    CLAVE_CACHE_TTL = 3600

    class Meta:
        abstract = True

    @classmethod
    def _clave_cache(cls) -> str:
        return f"unico:{cls._meta.label_lower}:v2"  # v2: versioned entries

    @classmethod
    def cargar(cls) -> Self:
        """The current row (created with defaults the first time)."""
        if _prediciendo.get() and cls in _vistos:
            return _vistos[cls]  # read-only use: the limit values of a guess
        leidos = _leidos.get()
        if leidos is not None and cls in leidos:
            # A copy: a caller that edits its row without saving must not change the others'.
            return _copia(leidos[cls])
        obj = cls._cargar_compartido()
        _vistos[cls] = _copia(obj)
        if leidos is not None:
            leidos[cls] = _copia(obj)
        return obj

    @classmethod
    def claves_cache(cls) -> list[str]:
        """The cache keys `cargar()` reads (for hub.cache.precarga)."""
        return claves_versionado(cls._clave_cache())

    @classmethod
    def fila(cls) -> Self:
        """The row from the database, created with defaults the first time; no cache involved.

        Created without `save()`, which would start a new cache generation and waste the build
        under way: no cached copy can come from a row that did not exist yet.
        """
        obj = cls.objects.filter(pk=1).first()
        if obj is None:
            cls.objects.bulk_create([cls(pk=1)], ignore_conflicts=True)  # another host may win
            obj = cls.objects.get(pk=1)
        return obj

    @classmethod
    def _cargar_compartido(cls) -> Self:
        clave = cls._clave_cache()
        obj, generacion = leer_versionado(clave)
        if obj is None:
            obj = cls.fila()
            guardar_versionado(clave, obj, generacion, cls.CLAVE_CACHE_TTL)
        return obj

    @classmethod
    def olvidar(cls) -> None:
        """Make the cached copy stale on every host (after a save, or in tests)."""
        leidos = _leidos.get()
        if leidos is not None:
            leidos.pop(cls, None)
        invalidar_versionado(cls._clave_cache())

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)
        type(self).olvidar()
        # Also after commit: a reader between save and commit may have cached the old row.
        transaction.on_commit(type(self).olvidar)

    def delete(self, *args, **kwargs):
        result = super().delete(*args, **kwargs)
        type(self).olvidar()
        return result
