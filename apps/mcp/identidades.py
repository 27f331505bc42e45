"""Who a credential is, from the shared cache: no SQL for a warm request's key, token and perms.

One entry per credential digest (`mcp:cred:<digest>`): the API key row, or the personal token row
with its user and that user's permissions already loaded (Django's ModelBackend keeps them on the
user object, so `has_perm` needs no query). Every entry is stored under one shared generation,
replaced at once (on every host: the cache is shared) by anything that can change who a
credential is: a token or key created, edited, revoked or deleted; a user saved (deactivated) or
deleted; their groups or direct permissions; a group's permissions. Signals carry them all: an
update() of tokens or keys (which sends no post_save) sends `credenciales_actualizadas` from their
queryset. Expiry needs no change: the reader checks it every time. The user's password hash is
never cached (deferred).

Read as every credential row is (hub.cache.por_huella): unknown digests are not cached.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from apps.cuentas.models import User
from apps.mcp.models import ClaveApi, TokenPersonal, credenciales_actualizadas
from apps.solicitudes.models.bandeja import ids_roles
from hub.cache.por_huella import FilasPorHuella
from hub.cache.versionado import invalidar_versionado

logger = logging.getLogger(__name__)

GENERACION = "mcp:cred:gen"
TTL = 3600  # also replaced on every change; the TTL only bounds a missed invalidation


FILAS = FilasPorHuella(
    "mcp:cred", GENERACION, TTL, vista=lambda fila: (fila.pk, getattr(fila, "usuario_id", None))
)
claves = FILAS.claves
prever = FILAS.prever


def _token_de_la_base(digest: str) -> TokenPersonal | None:
    token = (
        TokenPersonal.objects.select_related("usuario")
        .defer("usuario__password")
        .filter(digest=digest)
        .first()
    )
    if token is not None and token.usuario.is_active:
        # Filled now, they travel with the cached row: the permissions, and the group ids the
        # visibility rules read (a change of either replaces every cached identity).
        token.usuario.get_all_permissions()
        ids_roles(token.usuario)
    return token


def _clave_de_la_base(digest: str) -> ClaveApi | None:
    return ClaveApi.objects.filter(digest=digest).first()


def token(digest: str) -> TokenPersonal | None:
    """The personal token with this digest (its user and permissions loaded), or None."""
    return FILAS.leer(digest, _token_de_la_base)


def clave_api(digest: str) -> ClaveApi | None:
    """The API key with this digest, or None."""
    return FILAS.leer(digest, _clave_de_la_base)


def olvidar() -> None:
    """Every cached identity stops counting, on every host (now and after the commit)."""
    invalidar_versionado(GENERACION, es_generacion=True)
    # After commit too: a reader between the change and its commit may have cached the old row.
    transaction.on_commit(lambda: invalidar_versionado(GENERACION, es_generacion=True))


def _al_cambiar(sender, **kwargs) -> None:
    olvidar()


def _al_guardar(sender, created: bool = False, **kwargs) -> None:
    # A new row changes no cached identity: unknown digests are never cached.
    if not created:
        olvidar()


def _al_guardar_usuario(sender, created: bool = False, update_fields=None, **kwargs) -> None:
    # A new person has no credential yet; signing in saves last_login only.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    olvidar()


def _al_cambiar_relacion(sender, action: str, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        olvidar()


def _al_cambiar_relacion_de_usuarios(
    sender, action: str, instance, reverse: bool, pk_set=None, **kwargs
) -> None:
    """A person's groups or permissions: only people with a token can have a cached identity."""
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    usuarios = pk_set if reverse else {instance.pk}
    if usuarios is None or TokenPersonal.objects.filter(usuario_id__in=usuarios).exists():
        olvidar()


def conectar() -> None:
    """Connect the invalidations (McpConfig.ready)."""
    for modelo in (TokenPersonal, ClaveApi, Group, Permission):
        post_save.connect(_al_guardar, sender=modelo, dispatch_uid=f"identidades-{modelo}")
        post_delete.connect(_al_cambiar, sender=modelo, dispatch_uid=f"identidades-d-{modelo}")
    credenciales_actualizadas.connect(_al_cambiar, dispatch_uid="identidades-update")
    post_save.connect(_al_guardar_usuario, sender=User, dispatch_uid="identidades-usuario")
    post_delete.connect(_al_cambiar, sender=User, dispatch_uid="identidades-d-usuario")
    m2m_changed.connect(
        _al_cambiar_relacion, sender=Group.permissions.through, dispatch_uid="identidades-m2m-g"
    )
    for relacion in (User.groups.through, User.user_permissions.through):
        m2m_changed.connect(
            _al_cambiar_relacion_de_usuarios,
            sender=relacion,
            dispatch_uid=f"identidades-m2m-{relacion}",
        )
