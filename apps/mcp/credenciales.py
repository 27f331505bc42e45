"""Who is calling: the assistant's credential headers turned into an identity (DESIGN 6).

Failures are HTTP envelope errors (`ErrorAPI`), never JSON-RPC errors. Secrets never reach a log
or an error text: every message below is fixed.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.http import HttpRequest
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp import identidades, oauth, recurso, secretos, services
from apps.mcp.models import AjustesAsistente, ClaveApi, RegistroAuditoria, TokenPersonal
from hub.ip import ip_cliente
from hub.respuestas import ErrorAPI


@dataclass
class Identidad:
    """The caller of one request: an integration, a person, or both."""

    usuario: User | None
    clave: ClaveApi | None
    token: TokenPersonal | None
    ip: str
    oauth: oauth.AccesoOAuth | None = None  # an OAuth access token (person + client)

    @property
    def puede_escribir(self) -> bool:
        """Write tools: an OAuth token needs the write scope; other credentials need nothing."""
        return self.oauth is None or self.oauth.puede_escribir

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
            return f"t{self.token.pk}"
        if self.oauth is not None:
            return f"o{self.oauth.token_id}"
        return f"k{self.clave.pk}" if self.clave is not None else ""

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


def _valores(crudo: str) -> list[str]:
    """Each value of a present header: a repeated header reaches us joined with commas (RFC 9110
    5.3), and no token, key or bearer credential contains one. Empty: one empty (bad) value."""
    return [valor.strip() for valor in crudo.split(",") if valor.strip()] or [""]


def cabeceras(request: HttpRequest) -> tuple[set[str], set[str]]:
    """(user credentials, API keys) present in the headers; query strings are never read."""
    usuarios: set[str] = set()
    claves: set[str] = set()
    meta = request.META
    if "HTTP_X_MCP_USER_TOKEN" in meta:
        usuarios.update(_valores(meta["HTTP_X_MCP_USER_TOKEN"]))
    if "HTTP_X_MCP_API_KEY" in meta:
        claves.update(_valores(meta["HTTP_X_MCP_API_KEY"]))
    for parte in _valores(meta["HTTP_AUTHORIZATION"]) if "HTTP_AUTHORIZATION" in meta else []:
        esquema, _, valor = parte.partition(" ")
        valor = valor.strip()
        if esquema.lower() != "bearer" or not valor:
            raise _sin_credencial("La cabecera Authorization debe usar el esquema Bearer.")
        # A bearer that starts with sgimcp_ is a person's token, anything else an API key.
        (usuarios if valor.startswith(secretos.PREFIJO_TOKEN) else claves).add(valor)
    return usuarios, claves


def _token(secreto: str) -> TokenPersonal | None:
    if not secretos.bien_formado(secreto, secretos.PREFIJO_TOKEN):
        return None
    digest = secretos.huella(secreto)
    token = identidades.token(digest)
    if token is None or not hmac.compare_digest(token.digest, digest):
        return None
    return token if token.vigente() else None


def _clave(secreto: str) -> ClaveApi | None:
    if not secretos.bien_formado(secreto, secretos.PREFIJO_CLAVE):
        return None
    digest = secretos.huella(secreto)
    clave = identidades.clave_api(digest)
    if clave is None or not hmac.compare_digest(clave.digest, digest):
        return None
    return clave if clave.vigente() else None


def _por_oauth(request: HttpRequest, secreto: str) -> Identidad:
    """An OAuth access token alone: the person it names, with their current permissions."""
    acceso = oauth.validar(secreto)
    if not services.puede_usar(acceso.usuario):
        raise SinAcceso(acceso.usuario, None)
    oauth.anotar_uso(acceso)
    return Identidad(
        usuario=acceso.usuario, clave=None, token=None, ip=ip_cliente(request), oauth=acceso
    )


def identificar(request: HttpRequest, ajustes: AjustesAsistente) -> Identidad:
    """The caller's identity, or ErrorAPI 400/401/403 following the credential table."""
    secreto_oauth = oauth.secreto(request)
    if secreto_oauth is not None:
        # It names its client too: the "personal token only" switch does not apply.
        return _por_oauth(request, secreto_oauth)
    usuarios, claves = cabeceras(request)
    if len(usuarios) > 1:
        raise ErrorAPI(
            400, "CREDENCIAL_AMBIGUA", "Se enviaron dos credenciales de usuario distintas."
        )
    if len(claves) > 1:
        raise ErrorAPI(400, "CREDENCIAL_AMBIGUA", "Se enviaron dos claves de API distintas.")
    token = clave = None
    if usuarios:
        # An invalid user credential never falls back to key-only access.
        token = _token(next(iter(usuarios)))
        if token is None:
            raise _no_autenticado(
                "TOKEN_MCP_INVALIDO", "El token personal no es válido, venció o fue revocado."
            )
    if claves:
        clave = _clave(next(iter(claves)))
        if clave is None:
            raise _no_autenticado(
                "API_KEY_INVALIDA", "La clave de API no es válida, venció o fue revocada."
            )
    if token is None and clave is None:
        raise _sin_credencial(
            "Envíe la clave de API (X-MCP-Api-Key) y, para actuar como persona, su token "
            "personal (X-MCP-User-Token)."
        )
    if clave is None and not ajustes.permitir_token_solo:
        raise _sin_credencial(
            "Esta organización exige la clave de API (X-MCP-Api-Key) junto con el token personal."
        )
    usuario = token.usuario if token is not None else None
    if usuario is not None and not services.puede_usar(usuario):
        raise SinAcceso(usuario, clave)
    ip = ip_cliente(request)
    ahora = timezone.now()
    if token is not None:
        services.anotar_uso_token(token, ip, ahora)
    if clave is not None:
        services.anotar_uso_clave(clave, ahora)
    return Identidad(usuario=usuario, clave=clave, token=token, ip=ip)
