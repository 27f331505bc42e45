"""Who calls, which limit the call spends, and whether it may use the assistant (docs/contrato.md).

`admitir` decides all three, once, for the endpoint (`apps.mcp.protocolo.vista_mcp`). `prever`
declares the endpoint's part of the request's batch (hub.cache.lote): the cache keys a warm
request reads and, guessed from what this process resolved before, its count and its last-use
marks. The kinds of credential are the table `TIPOS`: a new kind is one entry there, or, for a
kind another app owns, one `registrar` call from that app's `ready()` (the OAuth access token:
apps.autorizacion.credencial), as the admin is filled by the apps above it.

Failures are HTTP envelope errors (`ErrorAPI`), never JSON-RPC errors. Secrets never reach a log
or an error text: every message below is fixed.
"""

from __future__ import annotations

import enum
import functools
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp import areas, identidades, recurso, services
from apps.mcp import limites as limites_mcp
from apps.mcp.models import AjustesAsistente, ClaveApi, RegistroAuditoria, TokenPersonal
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from hub.http.ip import decidir as decidir_ip
from hub.http.limites import Uso
from hub.http.respuestas import ErrorAPI

if TYPE_CHECKING:
    from hub.cache.lote import Pedido


class AccesoDeCliente(Protocol):
    """What the endpoint reads of an OAuth access (apps.autorizacion.accesos.AccesoOAuth)."""

    @property
    def token_id(self) -> int: ...

    @property
    def aplicacion(self) -> Any: ...  # the client: its `pk` and `nombre_visible`

    @property
    def puede_escribir(self) -> bool: ...

    @property
    def areas(self) -> frozenset[str]: ...


# The name the OAuth access token's kind is registered under (apps.autorizacion.credencial).
NOMBRE_OAUTH = "oauth"


@dataclass
class Identidad:
    """The caller of one request: an integration, a person, or both."""

    usuario: User | None
    clave: ClaveApi | None
    token: TokenPersonal | None
    ip: str
    oauth: AccesoDeCliente | None = None  # an OAuth access token (person + client)

    @property
    def puede_escribir(self) -> bool:
        """Write tools: an OAuth token needs the write scope; other credentials need nothing."""
        return self.oauth is None or self.oauth.puede_escribir

    @property
    def areas(self) -> frozenset[str]:
        """The areas this connection reaches: the OAuth grant's scopes or the personal token's
        choice, both already in hand (no query); an API key alone reaches every area."""
        if self.oauth is not None:
            return self.oauth.areas
        if self.token is not None:
            return areas.de_lista(self.token.areas.split())
        return areas.TODAS

    @property
    def tipo_credencial(self) -> str:
        tipos = RegistroAuditoria.TipoCredencial
        if self.oauth is not None:
            return tipos.OAUTH
        if self.token is not None and self.clave is not None:
            return tipos.CLAVE_Y_TOKEN
        return tipos.TOKEN if self.token is not None else tipos.CLAVE

    @property
    def credencial_id(self) -> str:
        """Stable id of the credential that speaks for the user (bound into confirmations)."""
        if self.token is not None:
            return TOKEN.credencial_id(self.token.pk)
        if self.oauth is not None:
            return por_nombre(NOMBRE_OAUTH).credencial_id(self.oauth.token_id)
        return CLAVE.credencial_id(self.clave.pk) if self.clave is not None else ""

    @property
    def integracion_id(self) -> str:
        """Key of the integration for per-integration limits ('-' for a token alone)."""
        if self.oauth is not None:
            return f"o{self.oauth.aplicacion.pk}"
        return str(self.clave.pk) if self.clave is not None else "-"


class SinAcceso(ErrorAPI):
    """403: a valid personal token whose owner may not use the assistant (counted under them)."""

    def __init__(self, usuario: User, clave: ClaveApi | None):
        super().__init__(403, "SIN_PERMISO", "Su usuario no tiene acceso al asistente.")
        self.usuario = usuario
        self.clave = clave


def _no_autenticado(code: str, detalle: str) -> ErrorAPI:
    return ErrorAPI(
        401, code, detalle, headers={"WWW-Authenticate": recurso.desafio(token_invalido=True)}
    )


def _sin_credencial(detalle: str) -> ErrorAPI:
    return ErrorAPI(401, "NO_AUTENTICADO", detalle, headers={"WWW-Authenticate": recurso.desafio()})


class Papel(enum.Enum):
    """Whom a credential names: a person, or an integration (at most one of each per call)."""

    PERSONA = "persona"
    INTEGRACION = "integracion"


AMBIGUAS = {
    Papel.PERSONA: "Se enviaron dos credenciales de usuario distintas.",
    Papel.INTEGRACION: "Se enviaron dos claves de API distintas.",
}


def _sin_reparos(_fila: Any) -> str | None:
    return None


@dataclass(frozen=True)
class TipoCredencial:
    """One kind of credential: where it travels, how its secrets look, whom it names, its row.

    A person's credential row has `usuario` and `usuario_id`; `bearer` is the prefix that routes
    an `Authorization: Bearer` value to this kind ("" takes any value no other kind claimed; a
    tuple, any of its prefixes).
    """

    nombre: str
    papel: Papel
    cabecera: str | None  # its own header, as request.META names it (None: Bearer only)
    prefijo: str  # of its secrets (secretos.huella_si_bien_formado)
    bearer: str | tuple[str, ...]
    # digest -> (cache keys its lookup reads, what this process saw it name: (id, user id, ...))
    prever: Callable[[str], tuple[list[str], tuple[int, ...] | None]]
    buscar: Callable[[str], Any]  # digest -> row, from the shared cache (apps.mcp.identidades)
    anotar_uso: Callable[[Any, str, datetime], None]  # (row, ip, now): the once-a-minute writes
    testigos_uso: Callable[[tuple[int, ...], str], tuple[str, ...]]  # (what prever saw, ip)
    invalida: tuple[str, str]  # code and text of the 401 when the secret names no valid row
    letra: str  # its rows' ids in `Identidad.credencial_id`: this letter, then the row's id
    # (row id, person) -> whether that credential of theirs still stands (apps.mcp.confirmacion:
    # a preview's credential gone since is SESION_EXPIRADA, one still in force is another's).
    vigente_para: Callable[[int, User | None], bool]
    # A live row that still may not be used here: the 401's text (with `invalida`'s code).
    reparo: Callable[[Any], str | None] = _sin_reparos
    # A kind that names the person and their integration at once comes alone: this 400's text
    # when anything else comes beside it.
    sola: str | None = None

    def credencial_id(self, pk: int) -> str:
        """The stable id of this kind's row `pk` (bound into confirmations)."""
        return f"{self.letra}{pk}"

    def id_de(self, credencial_id: str) -> int | None:
        """The row id in a `credencial_id` of this kind, or None if it is not one of its ids."""
        resto = credencial_id.removeprefix(self.letra)
        if resto == credencial_id or not (resto.isascii() and resto.isdecimal()):
            return None
        return int(resto)


TOKEN = TipoCredencial(
    nombre="token",
    papel=Papel.PERSONA,
    cabecera="HTTP_X_MCP_USER_TOKEN",
    prefijo=PREFIJO_TOKEN,
    bearer=PREFIJO_TOKEN,
    prever=identidades.prever,
    buscar=identidades.token,
    anotar_uso=services.anotar_uso_token,
    testigos_uso=lambda vista, ip: (services.testigo_uso_token(vista[0], ip),),
    invalida=("TOKEN_MCP_INVALIDO", "El token personal no es válido, venció o fue revocado."),
    letra="t",
    vigente_para=services.token_vigente_para,
)
CLAVE = TipoCredencial(
    nombre="clave",
    papel=Papel.INTEGRACION,
    cabecera="HTTP_X_MCP_API_KEY",
    prefijo=PREFIJO_CLAVE,
    bearer="",
    prever=identidades.prever,
    buscar=identidades.clave_api,
    anotar_uso=lambda clave, _ip, ahora: services.anotar_uso_clave(clave, ahora),
    testigos_uso=lambda vista, _ip: (services.testigo_uso_clave(vista[0]),),
    invalida=("API_KEY_INVALIDA", "La clave de API no es válida, venció o fue revocada."),
    letra="k",
    vigente_para=lambda _id, _usuario: False,  # names no person: nothing of theirs stands
)
# In order: a bearer value goes to the first kind whose `bearer` prefix it starts with (the API
# key, which takes any other value, stays last). The OAuth access token joins at start, between
# the two (`registrar`); mutated in place, so a module that imported it sees every kind.
TIPOS: list[TipoCredencial] = [TOKEN, CLAVE]


def registrar(nuevo: TipoCredencial) -> None:
    """Add a kind another app owns (from its AppConfig.ready()), before the kinds that take any
    bearer value. The same kind again changes nothing; another with a name or letter already
    taken is refused at start."""
    if nuevo in TIPOS:
        return
    for otro in TIPOS:
        if otro.nombre == nuevo.nombre or otro.letra == nuevo.letra:
            raise ImproperlyConfigured(f"credencial {nuevo.nombre!r}: nombre o letra repetidos")
    TIPOS.insert(next(i for i, otro in enumerate(TIPOS) if otro.bearer == ""), nuevo)
    prefijos.cache_clear()


def por_nombre(nombre: str) -> TipoCredencial:
    """The registered kind of this name (KeyError: no app registered it)."""
    for candidato in TIPOS:
        if candidato.nombre == nombre:
            return candidato
    raise KeyError(nombre)


@functools.cache
def prefijos() -> tuple[str, ...]:
    """Every prefix a secret of a registered kind starts with (the audit hides them)."""
    vistos: list[str] = []
    for candidato in TIPOS:
        bearer = (candidato.bearer,) if isinstance(candidato.bearer, str) else candidato.bearer
        for prefijo in (candidato.prefijo, *bearer):
            if prefijo and prefijo not in vistos:
                vistos.append(prefijo)
    return tuple(vistos)


def _valores(crudo: str) -> list[str]:
    """Each value of a present header: a repeated header reaches us joined with commas (RFC 9110
    5.3), and no token, key or bearer credential contains one. Empty: one empty (bad) value."""
    return [valor.strip() for valor in crudo.split(",") if valor.strip()] or [""]


def presentadas(request: HttpRequest) -> dict[Papel, dict[str, TipoCredencial]]:
    """The secrets in the headers, by whom they name, each with its kind; query strings are
    never read. 400 for anything beside a kind that comes alone; 401 for an Authorization header
    that is not Bearer."""
    por_papel: dict[Papel, dict[str, TipoCredencial]] = {papel: {} for papel in Papel}
    meta = request.META
    for tipo in TIPOS:
        if tipo.cabecera is not None and tipo.cabecera in meta:
            for valor in _valores(meta[tipo.cabecera]):
                por_papel[tipo.papel].setdefault(valor, tipo)
    sin_bearer = False
    for parte in _valores(meta["HTTP_AUTHORIZATION"]) if "HTTP_AUTHORIZATION" in meta else []:
        esquema, _, valor = parte.partition(" ")
        valor = valor.strip()
        if esquema.lower() != "bearer" or not valor:
            sin_bearer = True
            continue
        tipo = next(t for t in TIPOS if valor.startswith(t.bearer))
        por_papel[tipo.papel].setdefault(valor, tipo)
    todas = [tipo for secretos_ in por_papel.values() for tipo in secretos_.values()]
    sola = next((tipo.sola for tipo in todas if tipo.sola is not None), None)
    if sola is not None and (len(todas) > 1 or sin_bearer):
        raise ErrorAPI(400, "CREDENCIAL_AMBIGUA", sola)
    if sin_bearer:
        raise _sin_credencial("La cabecera Authorization debe usar el esquema Bearer.")
    return por_papel


@dataclass(frozen=True)
class Resuelta:
    """A credential that names someone: its kind, its row's id and person, and the row itself."""

    tipo: TipoCredencial
    id: int
    usuario_id: int | None
    fila: Any = None


def _resolver(tipo: TipoCredencial, secreto: str) -> Resuelta:
    """The valid row a secret names (ErrorAPI 401 when none)."""
    digest = secretos.huella_si_bien_formado(secreto, tipo.prefijo)
    fila = tipo.buscar(digest) if digest is not None else None
    if fila is None or not hmac.compare_digest(fila.digest, digest) or not fila.vigente():
        raise _no_autenticado(*tipo.invalida)
    if (reparo := tipo.reparo(fila)) is not None:
        raise _no_autenticado(tipo.invalida[0], reparo)
    return Resuelta(tipo, fila.pk, getattr(fila, "usuario_id", None), fila)


def _presentadas_sin_ambiguedad(request: HttpRequest) -> dict[Papel, dict[str, TipoCredencial]]:
    """`presentadas`, and 400 CREDENCIAL_AMBIGUA for two secrets of one role."""
    por_papel = presentadas(request)
    for papel, secretos_ in por_papel.items():
        if len(secretos_) > 1:
            raise ErrorAPI(400, "CREDENCIAL_AMBIGUA", AMBIGUAS[papel])
    return por_papel


def _identificar(
    request: HttpRequest, ajustes: AjustesAsistente
) -> tuple[Identidad, dict[Papel, Resuelta]]:
    """Who is calling, following the credential table, and their last use noted; ErrorAPI
    400/401/403 otherwise."""
    resueltas = {
        papel: _resolver(tipo, secreto)
        for papel, secretos_ in _presentadas_sin_ambiguedad(request).items()
        for secreto, tipo in secretos_.items()
    }
    if not resueltas:
        raise _sin_credencial(
            "Envíe la clave de API (X-MCP-Api-Key) y, para actuar como persona, su token "
            "personal (X-MCP-User-Token)."
        )
    # A kind that comes alone names the integration too: the switch is for personal tokens.
    nombra_integracion = Papel.INTEGRACION in resueltas or any(
        resuelta.tipo.sola is not None for resuelta in resueltas.values()
    )
    if not nombra_integracion and not ajustes.permitir_token_solo:
        raise _sin_credencial(
            "Esta organización exige la clave de API (X-MCP-Api-Key) junto con el token personal."
        )
    filas = {resuelta.tipo.nombre: resuelta.fila for resuelta in resueltas.values()}
    persona = resueltas.get(Papel.PERSONA)
    usuario = persona.fila.usuario if persona is not None else None
    if usuario is not None and not services.puede_usar(usuario):
        raise SinAcceso(usuario, filas.get(CLAVE.nombre))
    ip = _ip(request)
    ahora = timezone.now()
    for resuelta in resueltas.values():
        resuelta.tipo.anotar_uso(resuelta.fila, ip, ahora)
    # A new kind of credential adds its row to Identidad here (and to the audit's kinds).
    identidad = Identidad(
        usuario=usuario,
        clave=filas.get(CLAVE.nombre),
        token=filas.get(TOKEN.nombre),
        ip=ip,
        oauth=filas.get(NOMBRE_OAUTH),
    )
    return identidad, resueltas


def _ip(request: HttpRequest) -> str:
    """The client's address, decided as the request came in (hub.http.ip.decidir); a request built
    by hand (the SDK peer of `make bench`, bench.consultas) has it decided here."""
    decidida = getattr(request, "ip_cliente", None)
    return decidida if decidida is not None else decidir_ip(request)


def identificar(request: HttpRequest, ajustes: AjustesAsistente) -> Identidad:
    """The caller's identity, or ErrorAPI 400/401/403 following the credential table (no limit
    counted: `admitir` does both)."""
    identidad, _ = _identificar(request, ajustes)
    return identidad


@dataclass(frozen=True)
class Admision:
    """What `admitir` decided: the identity and its limit's use, or the refusal to answer
    (`quien`: whom the refusal is counted under, apps.mcp.rechazos; None: the address)."""

    identidad: Identidad | None = None
    uso: Uso | None = None
    rechazo: ErrorAPI | None = None
    quien: Identidad | SinAcceso | None = None


def admitir(request: HttpRequest, ajustes: AjustesAsistente) -> Admision:
    """Who is calling, the limit the call spends (60/min per person, 120/min per integration
    without a person, refused credentials per address) and whether it may use the assistant."""
    try:
        identidad, resueltas = _identificar(request, ajustes)
    except ErrorAPI as rechazo:
        try:
            uso = limites_mcp.aplicar_rechazo(request, ajustes)
        except ErrorAPI as exceso:
            return Admision(rechazo=exceso)
        return Admision(
            rechazo=rechazo, uso=uso, quien=rechazo if isinstance(rechazo, SinAcceso) else None
        )
    persona, integracion = resueltas.get(Papel.PERSONA), resueltas.get(Papel.INTEGRACION)
    try:
        uso = limites_mcp.aplicar_endpoint(
            request,
            usuario_id=persona.usuario_id if persona is not None else None,
            integracion_id=str(integracion.id) if integracion is not None else "-",
            ajustes=ajustes,
        )
    except ErrorAPI as exceso:
        return Admision(identidad=identidad, rechazo=exceso, quien=identidad)
    return Admision(identidad=identidad, uso=uso)


def prever(request: HttpRequest, pedido: Pedido) -> None:
    """The request's batch (hub.cache.lote) for `admitir`: the keys each presented credential's
    lookup reads and, when this process has resolved every one of them before (a guess: what
    those digests named then), the endpoint's count and the last-use marks `admitir` will ask
    for. Nothing is decided here; a wrong guess costs `admitir` one more round trip."""
    try:
        por_papel = _presentadas_sin_ambiguedad(request)
    except ErrorAPI:
        return  # a refused request guesses nothing
    vistas: dict[Papel, tuple[TipoCredencial, tuple[int, ...] | None]] = {}
    for papel, secretos_ in por_papel.items():
        for secreto, tipo in secretos_.items():
            digest = secretos.huella_si_bien_formado(secreto, tipo.prefijo)
            if digest is None:
                return
            claves, vista = tipo.prever(digest)
            pedido.leer(claves)
            vistas[papel] = (tipo, vista)
    if not vistas or any(vista is None for _, vista in vistas.values()):
        return
    ip = _ip(request)
    for tipo, vista in vistas.values():
        for testigo in tipo.testigos_uso(vista, ip):
            pedido.agregar(testigo, 1, services.SEGUNDOS_USO)
    persona, integracion = vistas.get(Papel.PERSONA), vistas.get(Papel.INTEGRACION)
    limites_mcp.prever_endpoint(
        pedido,
        usuario_id=persona[1][1] if persona is not None else None,
        integracion_id=str(integracion[1][0]) if integracion is not None else "-",
    )
