"""Writes of the assistant's credentials: create and revoke API keys and personal tokens."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp import areas
from apps.mcp.models import AjustesAsistente, ClaveApi, TokenPersonal
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN, visible
from hub import secretos
from hub.cache import lote

PERMISO_USAR = "mcp.asistente.usar"
PERMISO_ADMINISTRAR = "mcp.asistente.administrar"
VIGENCIAS_DIAS = (7, 30, 90, 180, 365)
MAX_TOKENS_ACTIVOS = 10
# Last use is written at most once per interval per credential: a busy token must not turn
# every call into an UPDATE.
INTERVALO_ULTIMO_USO = timedelta(minutes=1)
SEGUNDOS_USO = int(INTERVALO_ULTIMO_USO.total_seconds())


def puede_usar(usuario: User) -> bool:
    """Whether `usuario` may use the assistant: an active account with the permission."""
    return usuario.is_active and usuario.has_perm(PERMISO_USAR)


class ErrorCredencial(Exception):
    """A credential request the person can fix (shown as a form error)."""

    def __init__(self, campo: str, mensaje: str):
        self.campo = campo
        self.mensaje = mensaje
        super().__init__(mensaje)


def vigencias_permitidas(ajustes: AjustesAsistente | None = None) -> list[int]:
    """Expiry choices in days, bounded by the organization maximum (which is always offered)."""
    return _vigencias((ajustes or AjustesAsistente.cargar()).token_max_dias)


def _vigencias(maximo: int) -> list[int]:
    return sorted({d for d in VIGENCIAS_DIAS if d <= maximo} | {maximo})


def _vencimiento(*, dias: int | None, hasta: date | None, ahora: datetime, maximo: int) -> datetime:
    """When a new token expires: after one of the offered periods, or at the end of a chosen
    day (from tomorrow up to the organization's maximum)."""
    if (dias is None) == (hasta is None):
        raise ErrorCredencial("dias", "Elija una vigencia o una fecha de vencimiento.")
    if dias is not None:
        if dias not in _vigencias(maximo):
            raise ErrorCredencial("dias", "Elija una de las vigencias ofrecidas.")
        return ahora + timedelta(days=dias)
    hoy = timezone.localdate(ahora)
    ultimo = timezone.localdate(ahora + timedelta(days=maximo))
    if hasta <= hoy:
        raise ErrorCredencial("fecha", "Elija una fecha a partir de mañana.")
    if hasta > ultimo:
        raise ErrorCredencial(
            "fecha", f"La fecha más lejana permitida es {ultimo:%Y-%m-%d} ({maximo} días)."
        )
    fin_del_dia = timezone.make_aware(datetime.combine(hasta, time(23, 59)))
    return min(fin_del_dia, ahora + timedelta(days=maximo))


@transaction.atomic
def crear_token_personal(
    *,
    usuario: User,
    nombre: str,
    dias: int | None = None,
    hasta: date | None = None,
    ahora: datetime | None = None,
    areas_elegidas: Iterable[str] | None = None,
) -> tuple[TokenPersonal, str]:
    """A new personal token for `usuario` that lasts `dias` (one of the offered periods) or until
    the end of the day `hasta`, reaching the areas chosen (every area when not given); returns
    the row and the secret (shown once)."""
    ahora = ahora or timezone.now()
    maximo = AjustesAsistente.cargar().token_max_dias
    vence = _vencimiento(dias=dias, hasta=hasta, ahora=ahora, maximo=maximo)
    elegidas = areas.TODAS if areas_elegidas is None else frozenset(areas_elegidas) & areas.TODAS
    if not elegidas:
        raise ErrorCredencial("areas", "Elija al menos un área.")
    return _crear_token(
        usuario=usuario, nombre=nombre, vence=vence, ahora=ahora, areas_elegidas=elegidas
    )


def _crear_token(
    *,
    usuario: User,
    nombre: str,
    vence: datetime,
    ahora: datetime,
    areas_elegidas: frozenset[str] | None = None,
) -> tuple[TokenPersonal, str]:
    nombre = (nombre or "").strip()
    if not nombre:
        raise ErrorCredencial("nombre", "Escriba un nombre para reconocer el token.")
    if len(nombre) > 100:
        raise ErrorCredencial("nombre", "El nombre admite hasta 100 caracteres.")
    if not puede_usar(usuario):
        raise ErrorCredencial("__all__", "Su usuario no tiene acceso al asistente.")
    # Lock the person's row so two simultaneous creations cannot both pass the count.
    User.objects.select_for_update().filter(pk=usuario.pk).first()
    activos = TokenPersonal.objects.filter(
        usuario=usuario, revocado_en__isnull=True, vence__gt=ahora
    ).count()
    if activos >= MAX_TOKENS_ACTIVOS:
        raise ErrorCredencial(
            "__all__",
            f"Ya tiene {MAX_TOKENS_ACTIVOS} tokens activos: revoque alguno antes de crear otro.",
        )
    secreto = secretos.generar(PREFIJO_TOKEN)
    token = guardar_token(
        usuario=usuario,
        nombre=nombre,
        secreto=secreto,
        vence=vence,
        areas_elegidas=areas_elegidas,
    )
    return token, secreto


@transaction.atomic
def regenerar_token_personal(
    *, usuario: User, token_id: int, ahora: datetime | None = None
) -> tuple[TokenPersonal, str]:
    """Revoke one of the person's tokens and create another with the same name and lifetime
    (bounded by today's maximum); both happen or neither. Returns the new row and its secret."""
    ahora = ahora or timezone.now()
    token = _revocar_token(usuario=usuario, token_id=token_id, ahora=ahora)
    maximo = timedelta(days=AjustesAsistente.cargar().token_max_dias)
    duracion = min(max(token.vence - token.creado, timedelta(days=1)), maximo)
    return _crear_token(
        usuario=usuario,
        nombre=token.nombre,
        vence=ahora + duracion,
        ahora=ahora,
        areas_elegidas=areas.de_lista(token.areas.split()),  # the same reach as the old one
    )


def guardar_token(
    *,
    usuario: User,
    nombre: str,
    secreto: str,
    vence: datetime,
    revocado_en: datetime | None = None,
    areas_elegidas: Iterable[str] | None = None,
) -> TokenPersonal:
    """Store a personal token from its secret (digest and prefix only) and the areas it reaches
    (none given: every area, as the tokens from before areas existed)."""
    return TokenPersonal.objects.create(
        usuario=usuario,
        nombre=nombre,
        prefijo=visible(secreto),
        digest=secretos.huella(secreto),
        vence=vence,
        revocado_en=revocado_en,
        areas=" ".join(areas.ordenadas(areas_elegidas or ())),
    )


@transaction.atomic
def revocar_token_personal(
    *, usuario: User, token_id: int, ahora: datetime | None = None
) -> TokenPersonal:
    """Revoke one of the person's own tokens; another person's token does not exist for them."""
    return _revocar_token(usuario=usuario, token_id=token_id, ahora=ahora)


def _revocar_token(*, usuario: User, token_id: int, ahora: datetime | None) -> TokenPersonal:
    """The body of `revocar_token_personal`, inside the caller's transaction (no savepoint)."""
    token = TokenPersonal.objects.select_for_update().get(pk=token_id, usuario=usuario)
    if token.revocado_en is None:
        token.revocado_en = ahora or timezone.now()
        token.save(update_fields=["revocado_en"])
    return token


@transaction.atomic
def crear_clave_api(
    *, nombre: str, vence: datetime | None = None, creada_por: User | None = None
) -> tuple[ClaveApi, str]:
    """A new integration API key; returns the row and the secret (shown once)."""
    clave = ClaveApi(nombre=nombre, vence=vence)
    secreto = preparar_clave_api(clave, creada_por=creada_por)
    clave.save()
    return clave, secreto


def preparar_clave_api(
    clave: ClaveApi, *, creada_por: User | None, ahora: datetime | None = None
) -> str:
    """Give an unsaved key its secret (digest and prefix), its author and, when it has none, the
    default expiry (HUB_CLAVE_API_DIAS); returns the secret. An expiry in the past is refused."""
    ahora = ahora or timezone.now()
    if clave.vence is None:
        clave.vence = ahora + timedelta(days=settings.HUB_CLAVE_API_DIAS)
    elif clave.vence <= ahora:
        raise ErrorCredencial("vence", "La fecha de vencimiento ya pasó: elija una fecha futura.")
    secreto = generar_secreto_clave()
    asignar_secreto_clave(clave, secreto)
    clave.creada_por = creada_por
    return secreto


def generar_secreto_clave() -> str:
    return secretos.generar(PREFIJO_CLAVE)


def asignar_secreto_clave(clave: ClaveApi, secreto: str) -> None:
    """Put the digest and visible prefix of `secreto` on an unsaved key."""
    clave.prefijo = visible(secreto)
    clave.digest = secretos.huella(secreto)


def revocar_claves(*, ids: list[int]) -> int:
    """Revoke API keys (already revoked ones keep their date)."""
    return ClaveApi.objects.filter(pk__in=ids, revocado_en__isnull=True).update(
        revocado_en=timezone.now()
    )


def revocar_tokens(*, ids: list[int]) -> int:
    """Revoke personal tokens by id (administration)."""
    return TokenPersonal.objects.filter(pk__in=ids, revocado_en__isnull=True).update(
        revocado_en=timezone.now()
    )


def toca_anotar(
    testigo: str, ultimo: datetime | None, ahora: datetime, *, sin_cache: bool = True
) -> bool:
    """At most once a minute per credential (and IP) or client, whichever process or host
    served it.

    The row at hand may come from the identity cache, so its last use can be old: the shared
    cache holds the minute's testigo de uso (a key whose presence says the last use was written
    within the minute). With the cache down the answer is `sin_cache`: True where the row is
    fresh from the database anyway.
    """
    # The batch's answer is taken first whatever the row says, so a request runs the same path
    # whether its row came fresh from the database or old from the cache.
    agregado = lote.agregado(testigo)  # the request's batch may have made this add already
    if ultimo is not None and ahora - ultimo < INTERVALO_ULTIMO_USO:
        return False
    if agregado is not None:
        return agregado
    try:
        return bool(cache.add(testigo, 1, SEGUNDOS_USO))
    except Exception:
        return sin_cache


def token_vigente_para(token_id: int, usuario: User | None) -> bool:
    """Whether this person's personal token `token_id` still exists and is in force."""
    token = TokenPersonal.objects.filter(pk=token_id, usuario=usuario).first()
    return token is not None and token.vigente()


def testigo_uso_token(token_id: int, ip: str) -> str:
    """The key of a token's testigo de uso from an IP (see `toca_anotar`)."""
    return f"mcp:uso:t{token_id}:{ip}"


def testigo_uso_clave(clave_id: int) -> str:
    """The key of an API key's testigo de uso (see `toca_anotar`)."""
    return f"mcp:uso:k{clave_id}"


def anotar_uso_token(token: TokenPersonal, ip: str, ahora: datetime | None = None) -> None:
    """Record last use (time and IP), at most once a minute unless the IP changed."""
    ahora = ahora or timezone.now()
    ultimo = token.ultimo_uso if token.ultima_ip == ip else None
    if not toca_anotar(testigo_uso_token(token.pk, ip), ultimo, ahora):
        return
    TokenPersonal.objects.filter(pk=token.pk).update(ultimo_uso=ahora, ultima_ip=ip)
    token.ultimo_uso, token.ultima_ip = ahora, ip


def anotar_uso_clave(clave: ClaveApi, ahora: datetime | None = None) -> None:
    """Record last use of an API key, at most once a minute."""
    ahora = ahora or timezone.now()
    if not toca_anotar(testigo_uso_clave(clave.pk), clave.ultimo_uso, ahora):
        return
    ClaveApi.objects.filter(pk=clave.pk).update(ultimo_uso=ahora)
    clave.ultimo_uso = ahora
