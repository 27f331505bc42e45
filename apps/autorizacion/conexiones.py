"""A person's connected applications (OAuth clients they approved), as the profile lists them
("Desconectar" is apps.autorizacion.services.desconectar).

A connection is a client for which the person holds a live token: an access token not expired,
or a refresh token not revoked. Its first approval is the oldest token the person was ever issued
for that client (rotated refresh tokens stay, revoked, so it survives every refresh); its last use
is the newest mark the MCP endpoint left on one of its access tokens
(apps.autorizacion.credencial.anotar_uso).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F, Max, Min, Q
from django.utils import timezone
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
)

from apps.autorizacion.accesos import ALCANCE_ESCRIBIR, ALCANCE_LEER
from apps.cuentas.models import User
from apps.mcp import areas

USO_MINIMO = timedelta(milliseconds=1)
# Shown in this order, whatever order a client asked for them.
ALCANCES = (ALCANCE_LEER, ALCANCE_ESCRIBIR, *areas.ALCANCES)


@dataclass(frozen=True)
class Conexion:
    """One connected application as its person sees it."""

    aplicacion_id: int
    nombre: str
    verificada: bool
    deshabilitada: bool
    alcances: tuple[str, ...]
    primera_aprobacion: datetime | None
    ultimo_uso: datetime | None

    @property
    def escribe(self) -> bool:
        return ALCANCE_ESCRIBIR in self.alcances

    @property
    def areas_visibles(self) -> list[str]:
        """The titles of the areas it reaches (every area when its scopes name none)."""
        return [areas.AREAS[a][0] for a in areas.ordenadas(areas.de_alcances(self.alcances))]


def _ordenados(alcances: set[str]) -> tuple[str, ...]:
    conocidos = tuple(a for a in ALCANCES if a in alcances)
    return conocidos + tuple(sorted(alcances - set(ALCANCES)))


def conexiones_de(usuario: User) -> list[Conexion]:
    """The person's connected applications, most recently used (or approved) first."""
    ahora = timezone.now()
    Acceso = get_access_token_model()
    Refresco = get_refresh_token_model()
    # The live tokens name both the clients and their scopes (a refresh token's through its
    # access token, which it may have lost).
    vivos = [
        *Acceso.objects.filter(user=usuario, expires__gt=ahora).values_list(
            "application_id", "scope"
        ),
        *Refresco.objects.filter(user=usuario, revoked__isnull=True).values_list(
            "application_id", "access_token__scope"
        ),
    ]
    alcances: dict[int, set[str]] = {}
    for app_id, scope in vivos:
        if app_id is not None:
            alcances.setdefault(app_id, set()).update((scope or "").split())
    ids = set(alcances)
    if not ids:
        return []
    primeras = dict(
        Refresco.objects.filter(user=usuario, application_id__in=ids)
        .values_list("application_id")
        .annotate(primera=Min("created"))
        .order_by()
    )
    # `updated` is also set when the token is issued, a few microseconds after `created`: only
    # a later mark is a use (no client can call within a millisecond of being issued a token).
    usado = Q(updated__gte=F("created") + USO_MINIMO)
    accesos = {
        app_id: (primera, ultimo)
        for app_id, primera, ultimo in Acceso.objects.filter(user=usuario, application_id__in=ids)
        .values_list("application_id")
        .annotate(primera=Min("created"), ultimo=Max("updated", filter=usado))
        .order_by()
    }
    conexiones = []
    for app in get_application_model().objects.filter(pk__in=ids):
        primera_acceso, ultimo = accesos.get(app.pk, (None, None))
        candidatas = [f for f in (primeras.get(app.pk), primera_acceso) if f is not None]
        conexiones.append(
            Conexion(
                aplicacion_id=app.pk,
                nombre=app.nombre_visible,
                verificada=app.verificada,
                deshabilitada=app.deshabilitada,
                alcances=_ordenados(alcances[app.pk]),
                primera_aprobacion=min(candidatas) if candidatas else None,
                ultimo_uso=ultimo,
            )
        )
    conexiones.sort(
        key=lambda c: (c.ultimo_uso or c.primera_aprobacion or ahora, c.aplicacion_id),
        reverse=True,
    )
    return conexiones
