"""Per-account protection across addresses (issue 23 item 5; OWASP "device cookies").

Failed sign-ins for one account from browsers without its device cookie are counted whatever the
address (django-ratelimit through hub.http.limites, as every limit). At the ceiling
(HUB_INGRESO_TECHO_CUENTA per HUB_INGRESO_VENTANA_CUENTA seconds) the account is locked for such
browsers until the window ends: they are refused before their password is checked, so the answer
tells nothing about it. A browser that signed in to the account before keeps getting in: a stranger
cannot lock a person out of their own browser. An existing account's lock is also a row
(BloqueoIngreso): the admin lists it and can end it, it survives a cache that lost its counts, and
the person is told by e-mail once, when it opens.

The count's key carries the id of the account's last episode that is over ("época"): once an
administrator ends a lock, or a lock ends by itself, the count starts again from zero.

The e-mail carries a single-use link (OWASP's "unlock by e-mail", issue 35): a secret of the hub's
format (`sgides_`, hidden from the logs like every other), stored only as its digest and good
while the lock lasts. Its page marks the browser the button is pressed in as known (a device
cookie): a stranger who locks the account delays the person but never shuts them out. Opening the
link changes nothing (mail scanners open links); only the page's POST does, once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template import loader
from django.urls import reverse
from django.utils import timezone

from apps.cuentas import correo
from apps.cuentas.models import BloqueoIngreso, User
from apps.marca import selectors
from hub import secretos
from hub.http.limites import Uso, contar

logger = logging.getLogger(__name__)

GRUPO = "ingreso-cuenta-total"
PREFIJO_ENLACE = "sgides_"


@dataclass(frozen=True)
class Estado:
    """An account's lock as the database says: its episode in force (or None) and its época."""

    activo: BloqueoIngreso | None
    epoca: int


def estado(request: HttpRequest, cuenta: str) -> Estado:
    """The account's lock state: one small query, once per request."""
    guardado = getattr(request, "_hub_estado_cuenta", None)
    if guardado is not None:
        return guardado
    ultimo = BloqueoIngreso.objects.de_cuenta(cuenta).order_by("-id").first()
    if ultimo is not None and ultimo.levantado_en is None and ultimo.hasta > timezone.now():
        resultado = Estado(activo=ultimo, epoca=0)
    else:
        resultado = Estado(activo=None, epoca=ultimo.pk if ultimo is not None else 0)
    request._hub_estado_cuenta = resultado
    return resultado


def _uso(cuenta: str, epoca: int, *, incrementar: bool) -> Uso:
    return contar(
        grupo=GRUPO,
        clave=f"{cuenta}\0{epoca}",
        limite=settings.HUB_INGRESO_TECHO_CUENTA,
        ventana=settings.HUB_INGRESO_VENTANA_CUENTA,
        incrementar=incrementar,
    )


def espera(request: HttpRequest, cuenta: str) -> int | None:
    """Seconds until a browser the account does not know may try again, or None if it may now.

    Raises hub.http.limites.CacheNoDisponible.
    """
    actual = estado(request, cuenta)
    if actual.activo is not None:
        return max(1, int((actual.activo.hasta - timezone.now()).total_seconds()) + 1)
    uso = _uso(cuenta, actual.epoca, incrementar=False)
    # An account that does not exist is locked by the count alone, the same for the caller.
    return uso.reintentar_en if uso.usados >= uso.limite else None


def anotar_fallo(request: HttpRequest, cuenta: str) -> None:
    """Count a failure from a browser the account does not know; at the ceiling, open the lock.

    Raises hub.http.limites.CacheNoDisponible.
    """
    actual = estado(request, cuenta)
    if actual.activo is not None:
        return  # already locked: such browsers are refused before their password is checked
    uso = _uso(cuenta, actual.epoca, incrementar=True)
    # The count is atomic: exactly one failure reaches the ceiling, so one episode, one e-mail.
    if uso.usados == uso.limite:
        abrir(request=request, cuenta=cuenta, segundos=uso.reintentar_en)


def abrir(*, request: HttpRequest, cuenta: str, segundos: int) -> BloqueoIngreso | None:
    """Record the lock of an existing account and queue the e-mail that tells the person."""
    usuario = User.objects.filter(username__iexact=cuenta).order_by("pk").first()
    logger.warning("ingreso protegido: usuario=%r durante %s s", cuenta, segundos)
    if usuario is None:
        return None  # nobody to tell; the count alone keeps the lock
    ahora = timezone.now()
    con_correo = bool(usuario.email) and usuario.is_active
    # The link exists only in the e-mail: the row keeps its digest.
    enlace = secretos.generar(PREFIJO_ENLACE) if con_correo else ""
    with transaction.atomic():
        bloqueo = BloqueoIngreso.objects.create(
            cuenta=cuenta,
            usuario=usuario,
            desde=ahora,
            hasta=ahora + timedelta(seconds=segundos),
            fallos=settings.HUB_INGRESO_TECHO_CUENTA,
            avisado_en=ahora if con_correo else None,
            enlace_huella=secretos.huella(enlace) if enlace else "",
        )
    if con_correo:
        correo.encolar(request, _aviso(usuario, bloqueo, enlace))
    return bloqueo


def _aviso(usuario: User, bloqueo: BloqueoIngreso, enlace: str) -> EmailMultiAlternatives:
    """The e-mail that tells the person their account is protected, and what to do."""
    publica = selectors.marca_publica()
    marca = publica.datos
    contexto = {
        "usuario": usuario,
        "bloqueo": bloqueo,
        # The public address, never the request's Host (which whoever asked may choose).
        "enlace": settings.HUB_URL_PUBLICA + reverse("cuentas:desbloquear", args=[enlace]),
        "nombre_marca": marca["nombre"],
        "entidad": marca["nombre_entidad"] or marca["nombre"],
        "de_entidad": publica.personal["de_entidad"],
        # The staff's help desk, never the citizens' address.
        "contacto": publica.personal["mesa_ayuda_correo"],
        "minutos_ventana": settings.HUB_INGRESO_VENTANA_CUENTA // 60,
    }
    asunto = loader.render_to_string("cuentas/correo_bloqueo_asunto.txt", contexto)
    return EmailMultiAlternatives(
        "".join(asunto.splitlines()),
        loader.render_to_string("cuentas/correo_bloqueo.txt", contexto),
        to=[usuario.email],
    )


def levantar(*, bloqueos: QuerySet[BloqueoIngreso], por: User) -> int:
    """End the locks in force among `bloqueos`; their accounts' counts start again. How many."""
    with transaction.atomic():
        return (
            BloqueoIngreso.objects.filter(pk__in=bloqueos.values("pk"))
            .activos()
            .update(levantado_en=timezone.now(), levantado_por=por)
        )


# What an unlock link is now: usable, used already, or over (its lock ended or was lifted).
VIGENTE, USADO, VENCIDO = "vigente", "usado", "vencido"


def enlace(secreto: str) -> tuple[str, BloqueoIngreso] | None:
    """The state of the unlock link with this secret and its lock, or None if no lock has it."""
    digest = secretos.huella_si_bien_formado(secreto, PREFIJO_ENLACE)
    if digest is None:
        return None
    bloqueo = (
        BloqueoIngreso.objects.select_related("usuario")
        .filter(enlace_huella=digest, usuario__isnull=False)
        .first()
    )
    if bloqueo is None:
        return None
    if bloqueo.desbloqueado_en is not None:
        return USADO, bloqueo
    if bloqueo.estado != "Activo" or not bloqueo.usuario.is_active:
        return VENCIDO, bloqueo
    return VIGENTE, bloqueo


def desbloquear(*, secreto: str) -> BloqueoIngreso | None:
    """Use an unlock link, once: its lock (the caller marks the browser known), or None when the
    link is unknown, used or over. Of two uses at once, one gets the lock."""
    actual = enlace(secreto)
    if actual is None or actual[0] != VIGENTE:
        return None
    bloqueo = actual[1]
    with transaction.atomic():
        usados = (
            BloqueoIngreso.objects.activos()
            .filter(pk=bloqueo.pk, desbloqueado_en__isnull=True)
            .update(desbloqueado_en=timezone.now())
        )
    if not usados:
        return None
    logger.warning("ingreso protegido: navegador reconocido por correo, usuario=%r", bloqueo.cuenta)
    return bloqueo
