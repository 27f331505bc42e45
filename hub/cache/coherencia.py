"""The cache is never more authoritative than the database (issue 23; docs/decisiones.md).

Every cache entry derived from the database (hub.cache.versionado's entries: the singletons,
the published brand, the assistant's identities, the signature verifications) is stored under a
key that carries this process's *seal*: a digest of what the database says about the cache,

- its cache generation (`hub_coherencia.generacion`), bumped in the database by every change
  whose invalidation could not reach the cache (in the change's own transaction when it can),
  by whoever sees the cache come back from a failure, and by `manage.py tras_restaurar`;
- its identity: a random value written at migrate time (`hub_coherencia.identidad`, replaced by
  `tras_restaurar`), and on PostgreSQL the row's xmin, which a restore in place writes anew;
- the Redis server's run_id, learned on each new connection (hub.cache.almacenes.AL_CONECTAR): a
  Redis that died and came back from an old snapshot answers as if nothing happened (redis-py
  reconnects without an error), with the invalidations made since the snapshot gone; its new
  run_id means new keys, and a changed run_id is read at once.

A process reads them again at most every HUB_COHERENCIA_SEGUNDOS seconds (one small query on the
first cached read after that time; the other requests run no SQL for it), well within the bound.
A database restored other than in place is noticed through `manage.py tras_restaurar`, run after
the restore (docs/cache.md). One request reads it once:
hub.cache.versionado keeps it in the request's memo, so a request reads all its entries under
one seal (a new one counts from the next request, well within the bound). A new seal means new
keys: nothing stored before is read again, whatever the cache kept or lost meanwhile. The
rate-limit counters are not derived from the database and keep their keys.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import secrets
import threading
import time

from django.conf import settings
from django.db import DatabaseError, connection, models, transaction
from django.db.models import F

logger = logging.getLogger(__name__)

# The stated bound (docs/decisiones.md): a saved change is what every process serves within this
# many seconds, whatever happened to the cache. HUB_COHERENCIA_SEGUNDOS must stay well below it.
COTA_SEGUNDOS = 10

# xmin is the transaction that wrote the row: a `pg_restore --clean` into the same database writes
# it anew (as every bump does), so a restore in place changes the seal too.
_CONSULTA_POSTGRESQL = (
    "SELECT c.generacion, c.identidad, c.xmin FROM (SELECT 1) t "
    "LEFT JOIN hub_coherencia c ON c.id = 1"
)
# Always one row: NULLs while hub_coherencia has none (a flushed table, a restore under way).
_CONSULTA_SQLITE = (
    "SELECT c.generacion, c.identidad FROM (SELECT 1) LEFT JOIN hub_coherencia c ON c.id = 1"
)


def identidad_nueva() -> str:
    """A random identity for the database (the model's default and `tras_restaurar`'s)."""
    return secrets.token_hex(16)


class Coherencia(models.Model):
    """What every cached copy of database rows depends on (the seal above): one row, pk=1."""

    generacion = models.BigIntegerField(
        "generación de la caché",
        default=1,
        help_text="Sube cuando una invalidación no llegó a la caché: lo anterior deja de leerse.",
    )
    identidad = models.CharField(
        "identidad de la base de datos",
        max_length=32,
        default=identidad_nueva,
        help_text="Aleatoria; `manage.py tras_restaurar` la cambia después de una restauración.",
    )

    class Meta:
        verbose_name = "coherencia de la caché"
        verbose_name_plural = "coherencia de la caché"

    def __str__(self) -> str:
        return f"Generación {self.generacion}"


class _Estado:
    """This process's last reading of the database (threads share it: a race costs a query)."""

    def __init__(self) -> None:
        self.sello: str | None = None
        self.leido_en = -math.inf  # time.monotonic() of the reading
        self.cache_volvio = False  # the cache came back from a failure: bump the generation
        self.servidor_cache = ""  # the Redis server's run_id (empty: a file cache, or not known)
        self.servidor_del_sello = ""  # the run_id that `sello` was made with
        self.cerrojo = threading.Lock()


_estado = _Estado()


def sello() -> str:
    """This process's seal, read from the database again when it is older than the interval.

    Raises DatabaseError when the database cannot say: then no cached entry may be trusted.
    """
    if _estado.cache_volvio:
        _avanzar_por_vuelta()
    if _estado.sello is None or time.monotonic() - _estado.leido_en >= _intervalo():
        refrescar()
    return _estado.sello  # type: ignore[return-value]


@functools.cache
def esquema() -> str:
    """The shape of every installed model (table and columns) as this release knows it.

    Part of the seal: cached rows are pickled model instances, and one pickled by a release with
    fewer columns (before a deploy that added a field) would read each new field with a query of
    its own (Django's deferred fields) for as long as the entry lives. `make bench` saw it: one
    query per MCP ping with an OAuth token, after the OAuth switches joined AjustesAsistente.
    """
    from django.apps import apps

    partes = sorted(
        f"{m._meta.db_table}:{','.join(c.attname for c in m._meta.concrete_fields)}"
        for m in apps.get_models()
    )
    return hashlib.sha256("\n".join(partes).encode()).hexdigest()[:12]


def _intervalo() -> float:
    return min(settings.HUB_COHERENCIA_SEGUNDOS, COTA_SEGUNDOS / 2)


def refrescar() -> str:
    """Read the seal from the database now (one query; never an insert, see Singleton.fila)."""
    antes = time.monotonic()
    try:
        fila = _leer_fila()
    except DatabaseError:
        _estado.sello = None  # nothing cached is trusted until the database answers again
        raise
    partes = [str(p) for p in fila or ()]
    partes.append(esquema())
    servidor = _estado.servidor_cache
    partes.append(servidor)
    nuevo = hashlib.sha256("|".join(partes).encode()).hexdigest()[:16]
    if nuevo != _estado.sello and _estado.sello is not None:
        logger.info("caché: nueva generación o base de datos distinta; se descarta lo anterior")
    _estado.sello, _estado.leido_en, _estado.servidor_del_sello = nuevo, antes, servidor
    return nuevo


def vigente(sello_leido: str) -> bool:
    """Whether entries read under `sello_leido` may be served: it is still this process's seal
    and made with the Redis server the cache talks to now (a reconnection during the request may
    have found another one: what it answered under the old seal is not trusted)."""
    return sello_leido == _estado.sello and _estado.servidor_cache == _estado.servidor_del_sello


def _leer_fila() -> tuple | None:
    consulta = _CONSULTA_POSTGRESQL if connection.vendor == "postgresql" else _CONSULTA_SQLITE
    with connection.cursor() as cursor:
        cursor.execute(consulta)
        return cursor.fetchone()


def avanzar() -> None:
    """A new generation in the database: every process drops every cached entry within the bound.

    Inside a transaction it commits (or rolls back) with it: the change and its bump together.
    """
    if not Coherencia.objects.filter(pk=1).update(generacion=F("generacion") + 1):
        # No row (a flushed table): a write creates it, and a new row is a new seal already.
        Coherencia.objects.bulk_create([Coherencia(pk=1)], ignore_conflicts=True)
    _estado.leido_en = -math.inf  # this process at once


def avanzar_o_avisar(motivo: str) -> None:
    """`avanzar()`, logging instead of failing (it runs where a cache write just failed)."""
    try:
        avanzar()
    except DatabaseError:
        logger.error("no se pudo avanzar la generación de la caché (%s)", motivo)
    else:
        logger.warning("generación de la caché avanzada en la base de datos (%s)", motivo)


def rotar_identidad() -> None:
    """A new identity and generation (after a restore): nothing cached before is read again."""
    with transaction.atomic():
        hechas = Coherencia.objects.filter(pk=1).update(
            identidad=identidad_nueva(), generacion=F("generacion") + 1
        )
        if not hechas:
            Coherencia.objects.create(pk=1)
    _estado.leido_en = -math.inf


def cache_volvio() -> None:
    """The circuit breaker saw the cache answer after a failure (hub.cache.almacenes.Pausa).

    Invalidations may have been lost while it failed (or it may have come back from an old
    snapshot): the next cached read bumps the generation. Not here: this runs inside a cache call.
    """
    _estado.cache_volvio = True


def _avanzar_por_vuelta() -> None:
    with _estado.cerrojo:
        if not _estado.cache_volvio:
            return
        _estado.cache_volvio = False
    if connection.in_atomic_block:
        # With the request's transaction: a bump rolled back with it is repeated by the next one.
        transaction.on_commit(lambda: avanzar_o_avisar("la caché volvió tras un fallo"))
        return
    avanzar_o_avisar("la caché volvió tras un fallo")


def cache_conectada(servidor: str) -> None:
    """A new Redis connection (hub.cache.almacenes.AL_CONECTAR): another server's run_id is another
    seal.

    Called inside a cache call: it only marks the reading old, the next cached read rereads it.
    """
    if servidor != _estado.servidor_cache:
        _estado.servidor_cache = servidor
        _estado.leido_en = -math.inf


def olvidar_estado() -> None:
    """Forget this process's reading (tests: each starts as a process that never read it)."""
    _estado.sello = None
    _estado.leido_en = -math.inf
    _estado.cache_volvio = False
