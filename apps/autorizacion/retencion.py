"""OAuth purges for `manage.py mantenimiento` (hub.operacion.retencion discovers this module).

A refresh token older than its lifetime can never be used again (the hub's validator counts it
from its issue), revoked or not; kept until then, a revoked one is what detects a replay. An
access token expired longer ago than that has no refresh token left to renew it. Codes last a
minute; the record of an exchanged code (apps.autorizacion.canjes) is kept for its hour. The
library's `cleartokens` is not used: it does not know the administrator's lifetime.

A client that registered itself (RFC 7591 or a metadata document) and never completed a sign-in
(no token, no code under way, never used) goes after REGISTRO_SIN_USO_DIAS: connectors such as
Claude's register again on every connection attempt, and the rows would pile up in the admin. One
an administrator verified or disabled is the administrator's to delete.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion.canjes import RECUERDO_SEGUNDOS
from apps.autorizacion.models import Aplicacion, CanjeCodigo
from apps.autorizacion.servidor import vigencia_refresco
from hub.operacion.retencion import PURGAS, Purga

REGISTRO_SIN_USO_DIAS = 30


@PURGAS.agregar
def tokens_de_refresco(ahora: datetime) -> Purga:
    return Purga(
        "tokens de refresco OAuth vencidos",
        "borrados",
        RefreshToken.objects.filter(created__lt=ahora - vigencia_refresco()),
    )


@PURGAS.agregar
def tokens_de_acceso(ahora: datetime) -> Purga:
    return Purga(
        "tokens de acceso OAuth vencidos",
        "borrados",
        AccessToken.objects.filter(expires__lt=ahora - vigencia_refresco()),
    )


@PURGAS.agregar
def codigos(ahora: datetime) -> Purga:
    return Purga(
        "códigos de autorización OAuth vencidos",
        "borrados",
        Grant.objects.filter(expires__lt=ahora),
    )


@PURGAS.agregar
def codigos_canjeados(ahora: datetime) -> Purga:
    return Purga(
        f"códigos de autorización OAuth canjeados (hace más de {RECUERDO_SEGUNDOS // 60} minutos)",
        "borrados",
        CanjeCodigo.objects.filter(canjeado__lt=ahora - timedelta(seconds=RECUERDO_SEGUNDOS)),
    )


@PURGAS.agregar
def registros_sin_uso(ahora: datetime) -> Purga:
    return Purga(
        "aplicaciones registradas que nunca completaron un ingreso "
        f"(hace más de {REGISTRO_SIN_USO_DIAS} días)",
        "borradas",
        Aplicacion.objects.filter(
            registration_source__in=[Aplicacion.Origen.DCR, Aplicacion.Origen.CIMD],
            created__lt=ahora - timedelta(days=REGISTRO_SIN_USO_DIAS),
            ultimo_uso__isnull=True,
            verificada=False,
            deshabilitada=False,
        )
        .exclude(pk__in=AccessToken.objects.values("application"))
        .exclude(pk__in=RefreshToken.objects.values("application"))
        .exclude(pk__in=Grant.objects.values("application")),
    )
