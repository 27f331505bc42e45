"""Who an OAuth access token is, from the shared cache: the person, the client and the scopes.

Read the way apps.mcp.identidades reads personal tokens, and under the same generation
(`identidades.GENERACION`): one entry per token digest, stored sealed by hub.cache.coherencia, so a
warm request runs no SQL, and every change that makes a personal token's identity stale (a person
deactivated, their groups or permissions) makes these stale too. What only OAuth changes, this
module invalidates: a token revoked, refreshed away or deleted; a client edited or disabled; a
person's groups when they hold OAuth tokens but no personal token. The switches in the
assistant's settings (OAuth off, verified clients only) are read at every call, never cached here.

Unknown digests are not cached: a guessed token costs a query, bounded by the per-IP limit on
refused credentials (as for personal tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils import timezone
from oauth2_provider.models import AccessToken

from apps.autorizacion.models import Aplicacion, TokenAcceso
from apps.cuentas.models import User
from apps.mcp import areas as areas_asistente
from apps.mcp import identidades
from apps.solicitudes.models.bandeja import ids_roles
from hub.cache import coherencia
from hub.cache.por_huella import FilasPorHuella

TTL = identidades.TTL
ALCANCE_LEER = "asistente:leer"
ALCANCE_ESCRIBIR = "asistente:escribir"


@dataclass(frozen=True)
class AccesoOAuth:
    """An access token as the MCP endpoint needs it (never the secret itself)."""

    token_id: int
    digest: str
    usuario: User  # permissions and role ids already loaded, as identidades does
    aplicacion: Aplicacion
    alcances: frozenset[str]
    recursos: tuple[str, ...]
    vence: datetime

    @property
    def pk(self) -> int:
        """The token's id, as the rows of the other credential kinds name theirs."""
        return self.token_id

    @property
    def usuario_id(self) -> int:
        return self.usuario.pk

    @property
    def puede_escribir(self) -> bool:
        return ALCANCE_ESCRIBIR in self.alcances

    @property
    def areas(self) -> frozenset[str]:
        """The areas its scopes grant (a token from before areas existed names none: all)."""
        return areas_asistente.de_alcances(self.alcances)

    def vigente(self, ahora: datetime | None = None) -> bool:
        """Not expired, and its client usable now (not disabled, OAuth on, verified if asked)."""
        return self.vence > (ahora or timezone.now()) and self.aplicacion.usable_ahora()

    def para_recurso(self, recurso: str) -> bool:
        """RFC 8707: issued for this resource (every token names one: the MCP one by default)."""
        return recurso in self.recursos


FILAS = FilasPorHuella(
    "oauth:acc",
    identidades.GENERACION,
    TTL,
    vista=lambda entrada: (entrada.token_id, entrada.usuario.pk, entrada.aplicacion.pk),
)
claves = FILAS.claves
prever = FILAS.prever


def _de_la_base(digest: str) -> AccesoOAuth | None:
    fila = (
        AccessToken.objects.select_related("application", "user")
        .defer("user__password")
        .filter(token_checksum=digest, user__isnull=False, application__isnull=False)
        .first()
    )
    if fila is None:
        return None
    # A blocked person's token still names them: the MCP endpoint refuses them with 403
    # SIN_PERMISO, as it does a blocked person's personal token (docs/contrato.md), not with a 401.
    # Filled now, they travel with the cached entry (see apps.mcp.identidades).
    fila.user.get_all_permissions()
    ids_roles(fila.user)
    return AccesoOAuth(
        token_id=fila.pk,
        digest=fila.token_checksum,
        usuario=fila.user,
        aplicacion=fila.application,
        alcances=frozenset(fila.scope.split()),
        recursos=tuple(fila.resource or ()),
        vence=fila.expires,
    )


def por_huella(digest: str) -> AccesoOAuth | None:
    """The access token with this digest as last stored (live or not: the caller checks), or
    None; remembered for the next request's guess (`prever`). The MCP endpoint's only lookup:
    format, digest, live state and resource are checked by the credential table
    (apps.autorizacion.credencial.OAUTH), never a second time here."""
    return FILAS.leer(digest, _de_la_base)


def olvidar() -> None:
    """Every cached identity (OAuth and personal) stops counting, on every host."""
    identidades.olvidar()


def olvidar_seguro() -> None:
    """`olvidar()`, and the database's cache generation too (in the caller's transaction): for
    a client disabled, its tokens stop within the bound even if the cache never heard of it."""
    olvidar()
    coherencia.avanzar()


def _al_cambiar(sender, **kwargs) -> None:
    olvidar()


def _al_guardar(sender, created: bool = False, **kwargs) -> None:
    # A new row changes no cached identity: unknown digests are never cached.
    if not created:
        olvidar()


def _al_guardar_aplicacion(sender, created: bool = False, update_fields=None, **kwargs) -> None:
    if created or (update_fields is not None and set(update_fields) <= {"ultimo_uso"}):
        return
    olvidar()


def _al_cambiar_relacion_de_usuarios(
    sender, action: str, instance, reverse: bool, pk_set=None, **kwargs
) -> None:
    """A person's groups or permissions: apps.mcp.identidades bumps only for people with a
    personal token; people with only OAuth tokens are covered here."""
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    usuarios = pk_set if reverse else {instance.pk}
    if usuarios is None or AccessToken.objects.filter(user_id__in=usuarios).exists():
        olvidar()  # now and after the commit (apps.mcp.identidades.olvidar)


def conectar() -> None:
    """Connect the invalidations (AutorizacionConfig.ready)."""
    # A refresh token is never cached; rotating or revoking one deletes its access token.
    for modelo in (AccessToken, TokenAcceso):  # the admin's proxy sends its own signals
        post_save.connect(_al_guardar, sender=modelo, dispatch_uid=f"oauth-{modelo}")
        post_delete.connect(_al_cambiar, sender=modelo, dispatch_uid=f"oauth-d-{modelo}")
    post_save.connect(_al_guardar_aplicacion, sender=Aplicacion, dispatch_uid="oauth-app")
    post_delete.connect(_al_cambiar, sender=Aplicacion, dispatch_uid="oauth-d-app")
    for relacion in (User.groups.through, User.user_permissions.through):
        m2m_changed.connect(
            _al_cambiar_relacion_de_usuarios,
            sender=relacion,
            dispatch_uid=f"oauth-m2m-{relacion}",
        )
    # Group and Permission edits are covered by apps.mcp.identidades for everyone.
