"""A person who loses the assistant loses their OAuth connections' refreshing (issue 35).

Blocking a person (`is_active` false) or taking the assistant's permission from them (their own
permissions, their groups, a group's permissions, a group deleted) revokes their live refresh
tokens in the change's own transaction: a refresh is then `invalid_grant`, and a person reactivated
later does not revive an old connection. Their access tokens are left alone: until they expire the
MCP endpoint answers them 403 SIN_PERMISO (docs/decisiones/oauth.md, «Persona bloqueada con un token
OAuth: 403»), which no client takes for a reason to sign in again. Refresh tokens are read from the
database at every refresh, never cached: the revocation holds on every host at once, within the
coherence bound. A change that sends no signal (a bulk update) is caught where the refresh is asked
for (apps.autorizacion.servidor.Validador).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import Group, Permission
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.utils import timezone
from oauth2_provider.models import RefreshToken

from apps.cuentas.models import User
from apps.mcp import services as servicios_asistente

CAMBIOS = ("post_remove", "post_clear")


def revocar_si_perdieron(usuarios: Iterable[int] | None) -> int:
    """Revoke the live refresh tokens of those among `usuarios` (None: everyone with one) who may
    no longer use the assistant; how many were revoked."""
    vivos = RefreshToken.objects.filter(revoked__isnull=True, user__isnull=False)
    if usuarios is not None:
        vivos = vivos.filter(user_id__in=list(usuarios))
    ids = set(vivos.values_list("user_id", flat=True))
    if not ids:
        return 0
    # Read again from the database: a signal's instance may carry permissions cached before.
    perdieron = [u.pk for u in User.objects.filter(pk__in=ids) if not puede(u)]
    if not perdieron:
        return 0
    ahora = timezone.now()
    # An update, not the library's revoke(): that one deletes the access token too, which would
    # turn the 403 its person gets into a 401 that sends the client to sign in again.
    return RefreshToken.objects.filter(user_id__in=perdieron, revoked__isnull=True).update(
        revoked=ahora, updated=ahora
    )


def puede(usuario: User) -> bool:
    """Whether the person may use the assistant (and so keep refreshing)."""
    return servicios_asistente.puede_usar(usuario)


def _al_guardar_usuario(sender, instance: User, created: bool = False, update_fields=None, **kw):
    # A new person has no token; signing in saves last_login only.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    revocar_si_perdieron([instance.pk])  # one small query for a person with no connection


def _al_cambiar_usuario(sender, action: str, instance, reverse: bool, pk_set=None, **kwargs):
    """A person's groups or own permissions, changed from either side."""
    if action not in CAMBIOS:
        return
    revocar_si_perdieron(pk_set if reverse else [instance.pk])


def _al_cambiar_grupo(sender, action: str, instance, reverse: bool, pk_set=None, **kwargs):
    """A group's permissions, changed from either side: its members may have lost them."""
    if action not in CAMBIOS:
        return
    if not reverse:
        revocar_si_perdieron(instance.user_set.values_list("pk", flat=True))
    elif pk_set is not None:
        revocar_si_perdieron(User.objects.filter(groups__in=pk_set).values_list("pk", flat=True))
    else:
        revocar_si_perdieron(None)  # a permission cleared from every group


def _antes_de_borrar_grupo(sender, instance: Group, **kwargs) -> None:
    instance._hub_miembros = list(instance.user_set.values_list("pk", flat=True))


def _al_borrar_grupo(sender, instance: Group, **kwargs) -> None:
    revocar_si_perdieron(getattr(instance, "_hub_miembros", None))


def _al_borrar_permiso(sender, instance: Permission, **kwargs) -> None:
    revocar_si_perdieron(None)


def conectar() -> None:
    """Connect the revocations (AutorizacionConfig.ready)."""
    post_save.connect(_al_guardar_usuario, sender=User, dispatch_uid="oauth-retiro-usuario")
    for relacion in (User.groups.through, User.user_permissions.through):
        m2m_changed.connect(
            _al_cambiar_usuario, sender=relacion, dispatch_uid=f"oauth-retiro-{relacion}"
        )
    m2m_changed.connect(
        _al_cambiar_grupo, sender=Group.permissions.through, dispatch_uid="oauth-retiro-grupo"
    )
    pre_delete.connect(_antes_de_borrar_grupo, sender=Group, dispatch_uid="oauth-retiro-g-antes")
    post_delete.connect(_al_borrar_grupo, sender=Group, dispatch_uid="oauth-retiro-g")
    post_delete.connect(_al_borrar_permiso, sender=Permission, dispatch_uid="oauth-retiro-p")
