"""Who is asking, as people are told: a client the administrator verified, one whose every
redirect URI is on a recognised callback host (the administrator's list: its codes can only
reach that host), an app on this computer (loopback or a private-use scheme, RFC 8252), or an
app known only by the host it returns to. A name the client gave itself is never presented as
who it is: anyone can register one, or craft a link that names any client.

The same facts say which addresses get the authorization endpoint's errors by redirect.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from apps.autorizacion.models import AnfitrionReconocido, Aplicacion, nombre_limpio
from apps.autorizacion.redirecciones import LOOPBACK
from hub.cache.versionado import guardar_versionado, invalidar_versionado, leer_versionado

CLAVE = "autorizacion:anfitriones:v1"
# Read on every authorization request; every change is invalidated at once (and, if the cache
# misses that, hub.cache.coherencia's bound holds): the TTL only bounds what nothing else would.
TTL = 3600


def anfitriones() -> dict[str, str]:
    """{host: name to show} of the recognised callback hosts (one cache read, or one query)."""
    valor, generacion = leer_versionado(CLAVE)
    if valor is None:
        valor = dict(AnfitrionReconocido.objects.values_list("anfitrion", "nombre"))
        guardar_versionado(CLAVE, valor, generacion, TTL)
    return valor


def olvidar(**kwargs) -> None:
    """The cached list stops counting on every host, now and once the change commits (a reader
    between the save and the commit may have cached the old list)."""
    invalidar_versionado(CLAVE)
    if kwargs:  # from a signal: again after the commit
        transaction.on_commit(olvidar)


def conectar() -> None:
    """Every save or delete of a recognised host (admin, shell, migration) drops the cache."""
    post_save.connect(olvidar, sender=AnfitrionReconocido, dispatch_uid="reconocidas-guardar")
    post_delete.connect(olvidar, sender=AnfitrionReconocido, dispatch_uid="reconocidas-borrar")


def _partes(uri: str) -> tuple[str, str]:
    """(scheme, host) in lower case; ("", "") for what cannot be read."""
    try:
        partes = urlsplit(uri)
    except ValueError:
        return "", ""
    return partes.scheme.lower(), (partes.hostname or "").lower()


def en_este_equipo(uri: str) -> bool:
    """Loopback http, or a private-use scheme (RFC 8252 7.1: anything but http and https)."""
    esquema, host = _partes(uri)
    if not esquema:
        return False
    if esquema == "http":
        return host in LOOPBACK
    return esquema != "https"


def anfitrion_reconocido(uri: str) -> str | None:
    """The recognised name of an https redirect URI's host, or None."""
    esquema, host = _partes(uri)
    return anfitriones().get(host) if esquema == "https" and host else None


def redirige_errores(uri: str, aplicacion: Aplicacion | None) -> bool:
    """Whether an error found before any hub page was shown may go straight back to `uri` (the
    client's validated redirect URI): only to an address somebody vouches for. Anyone else's
    errors are shown on the hub's page, with the address as a link (RFC 9700 4.11.2)."""
    if not uri:
        return False
    if aplicacion is not None and aplicacion.verificada:
        return True
    return en_este_equipo(uri) or anfitrion_reconocido(uri) is not None


@dataclass(frozen=True)
class Presentacion:
    """How the pages name a client asking for access through one redirect URI."""

    nombre: str  # who it is, vouched (administrator or recognised host); "" when unknown
    anfitrion: str  # the host it returns to ("" when it returns to this computer)
    en_este_equipo: bool
    verificada: bool
    reconocida: bool
    descripcion_propia: str  # the name it gave itself, when that is not who it is

    @property
    def como_se_llama(self) -> str:
        """The app in one phrase, for a sentence: never a name a stranger typed."""
        if self.nombre:
            return self.nombre
        return "una aplicación en este equipo" if self.en_este_equipo else "una aplicación"


def nombre_reconocido(aplicacion: Aplicacion) -> str | None:
    """The recognised name when every redirect URI of the client is https on that one host."""
    hosts = {_partes(u) for u in aplicacion.redirect_uris.split()}
    if len(hosts) != 1:
        return None
    ((esquema, host),) = hosts
    return anfitriones().get(host) if esquema == "https" and host else None


def presentar(aplicacion: Aplicacion, redirect_uri: str) -> Presentacion:
    """Who asks, for the sign-in and consent pages."""
    local = en_este_equipo(redirect_uri)
    reconocido = None if local else nombre_reconocido(aplicacion)
    propio = nombre_limpio(aplicacion.name)
    # A verified client's own name was checked by an administrator; anyone else's is not who it is.
    nombre = (propio if aplicacion.verificada else "") or reconocido or ""
    return Presentacion(
        nombre=nombre,
        anfitrion="" if local else _partes(redirect_uri)[1],
        en_este_equipo=local,
        verificada=aplicacion.verificada,
        reconocida=reconocido is not None,
        descripcion_propia="" if aplicacion.verificada or propio == nombre else propio,
    )
