"""The library's OAuth server, configured for the hub (docs/decisiones/oauth.md).

- Only the authorization code grant (with refresh): oauthlib's WebApplicationServer, which has no
  implicit, password, client-credentials nor device grant at all.
- PKCE S256 only: `plain` is refused at the authorization request itself, before any consent
  (the library's COMPLIANT_BCP_RFC9700_PKCE_METHOD refuses it only when the code is saved); a
  challenge must be 43 to 128 unreserved characters (RFC 7636 4.2).
- A protocol parameter sent twice is `invalid_request` (RFC 6749 3.1), not the last one kept.
- Lifetimes from the assistant's settings, read per request where the library reads them:
  the access token's through oauthlib's `token_expires_in` (a callable), the refresh token's in
  `validate_refresh_token` (counted from the refresh token's issue: each rotation slides it).
- RFC 8707: a token request without `resource` is bound to the MCP resource, so every token
  names the resource it is for.
- A refresh is refused to a person who may no longer use the assistant (blocking revokes their
  refresh tokens too: apps.autorizacion.retiros), and of two refreshes of one token at once, one
  gets the tokens and the other `invalid_grant` (never a 500 from the library's grace branch),
  the family then revoked as for any reuse.
- A code presented again after its exchange is refused and revokes what it gave
  (apps.autorizacion.canjes). The code is consumed in the transaction that saves its tokens, and
  its grant is read once per exchange: of two exchanges of one code on two hosts at once, one
  gets the tokens and the other `invalid_grant` (never a 500 from a grant gone midway).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import QueryDict
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant, RefreshToken
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2 import WebApplicationServer
from oauthlib.oauth2.rfc6749 import errors

from apps.autorizacion import canjes, redirecciones, retiros, tokens
from apps.autorizacion.models import Aplicacion, MetodoAutenticacion
from apps.mcp import recurso
from apps.mcp.models import AjustesAsistente

# The person at the authorization endpoint, as the consent view hands it to the library: a
# request.META key without the HTTP_ prefix, which no request header can set.
PERSONA = "hub.persona_autorizando"


def vigencia_acceso(request=None) -> int:
    """Seconds an access token lives (the administrator's setting)."""
    return AjustesAsistente.cargar().oauth_acceso_segundos


def vigencia_refresco() -> timedelta:
    """How long a refresh token lives after it is issued (the administrator's setting)."""
    return timedelta(days=AjustesAsistente.cargar().oauth_refresco_dias)


class Validador(OAuth2Validator):
    """The library's validator, with the hub's lifetimes and resource binding."""

    def authenticate_client(self, request, *args, **kwargs) -> bool:
        """The library's check of the secret, and then the method the client registered
        (RFC 7591 `token_endpoint_auth_method`): the library takes a secret by HTTP Basic or in
        the body from any client. A client using another method than its own, or two at once,
        gets `invalid_client` (RFC 6749 2.3 and 5.2)."""
        por_basic = usa_basic(request)
        en_cuerpo = bool(getattr(request, "client_secret", None))
        if not super().authenticate_client(request, *args, **kwargs):
            return False
        return metodo_usado(por_basic, en_cuerpo) in metodos_admitidos(request.client)

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs) -> bool:
        """The registration's rule (apps.autorizacion.redirecciones) at the authorization request
        too: a URI stored before the rule, or by other means, is not followed."""
        return redirecciones.permitida(redirect_uri) and super().validate_redirect_uri(
            client_id, redirect_uri, request, *args, **kwargs
        )

    def get_default_scopes(self, client_id, request, *args, **kwargs) -> list[str]:
        """A request without `scope`: what the person granted this client last time (a
        connector reconnecting omits it), never wider; the defaults on a first connection."""
        por_defecto = super().get_default_scopes(client_id, request, *args, **kwargs)
        persona = (request.headers or {}).get(PERSONA)
        if request.client is None or not persona:
            return por_defecto
        return alcances_concedidos(persona, request.client) or por_defecto

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs) -> bool:
        # Asked first: the library revokes the family of a revoked token presented again (and
        # deletes its access tokens), which would turn a blocked person's 403 into a 401.
        fila = (
            RefreshToken.objects.filter(token_checksum=tokens.huella(refresh_token))
            .select_related("user")
            .first()
        )
        if fila is not None and fila.user is not None and not retiros.puede(fila.user):
            return False  # blocked, or without the assistant: no new tokens, whatever the row
        if not super().validate_refresh_token(refresh_token, client, request, *args, **kwargs):
            return False
        emitido = request.refresh_token_instance.created
        if not getattr(request, "resource", None) and not request.refresh_token_instance.resource:
            request.resource = [recurso.url_recurso()]  # as for a code: every token names one
        return emitido + vigencia_refresco() > timezone.now()

    def validate_code(self, client_id, code, client, request, *args, **kwargs) -> bool:
        if not super().validate_code(client_id, code, client, request, *args, **kwargs):
            canjes.al_reusar(code)
            return False
        # The grant, read once for the rest of the exchange (PKCE, redirect URI, resource): the
        # library reads it again at each step, and another exchange of the same code may delete
        # it in between (its `get` then raised: a 500).
        concesion = Grant.objects.filter(code=code, application=client).first()
        if concesion is None:  # consumed by another exchange since the line above
            canjes.al_reusar(code)
            return False
        request.concesion = concesion
        # RFC 8707 with no resource anywhere (neither this request nor its grant): the MCP one.
        # A grant that names one is left to the library, which binds the token to it.
        if not getattr(request, "resource", None) and not concesion.resource:
            request.resource = [recurso.url_recurso()]
        return True

    @staticmethod
    def _concesion(code, request) -> Grant | None:
        """The grant `validate_code` read for this exchange (or, outside it, as it is now)."""
        concesion = getattr(request, "concesion", None)
        if concesion is not None and concesion.code == code:
            return concesion
        return Grant.objects.filter(code=code, application=request.client).first()

    def get_code_challenge(self, code, request) -> str | None:
        concesion = self._concesion(code, request)
        return (concesion.code_challenge or None) if concesion is not None else None

    def get_code_challenge_method(self, code, request) -> str | None:
        concesion = self._concesion(code, request)
        return (concesion.code_challenge_method or None) if concesion is not None else None

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, request, *args, **kwargs):
        concesion = self._concesion(code, request)
        return concesion is not None and concesion.redirect_uri_allowed(redirect_uri)

    def save_bearer_token(self, token, request, *args, **kwargs):
        if request.grant_type == "refresh_token":
            return self._rotar(token, request, *args, **kwargs)
        if request.grant_type != "authorization_code":
            return super().save_bearer_token(token, request, *args, **kwargs)
        # One transaction consumes the code, saves its tokens and records the exchange: of two
        # exchanges of one code, the one that deletes the grant first gets the tokens.
        try:
            with transaction.atomic():
                guardado = super().save_bearer_token(token, request, *args, **kwargs)
                consumidos, _ = Grant.objects.filter(
                    code=request.code, application=request.client
                ).delete()
                if not consumidos:
                    raise canjes.YaCanjeado
                canjes.anotar(request.code, token["access_token"])
        except canjes.YaCanjeado:
            # Another exchange of this code got past validate_code too: this one is the replay.
            # Its tokens were rolled back; the other exchange's are revoked.
            canjes.al_reusar(request.code)
            raise errors.InvalidGrantError(request=request) from None
        return guardado

    def _rotar(self, token, request, *args, **kwargs):
        """A refresh: the refresh token locked and still live, or `invalid_grant` and its family
        revoked.

        Two refreshes of one token may both pass validate_refresh_token; the library then let
        the second reach its grace-period branch, which reads an access token the first had
        just deleted (a 500). Here the second waits for the first's lock and finds the token
        rotated: a reuse, as a replay a moment later is (the library revokes the family then),
        so the family goes too, whichever request got there first (docs/decisiones/oauth.md).
        """
        instancia = getattr(request, "refresh_token_instance", None)
        with transaction.atomic():
            vivo = instancia is None or bool(
                RefreshToken.objects.select_for_update()
                .filter(pk=instancia.pk, revoked__isnull=True)
                .values_list("pk", flat=True)
            )
            if vivo:
                return super().save_bearer_token(token, request, *args, **kwargs)
        # After the transaction: the error below must not roll the revocation back.
        RefreshToken.revoke_family(instancia.token_family)
        raise errors.InvalidGrantError(request=request)

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs) -> None:
        """Nothing left to do: `save_bearer_token` consumed the code with its tokens."""

    def validate_silent_authorization(self, request) -> bool:
        return False

    def validate_silent_login(self, request) -> bool:
        return False


def recurso_canonico(valor: str) -> str:
    """The MCP endpoint's URL for itself with a trailing slash (a client that appends one names
    the same resource); any other value as sent."""
    mcp = recurso.url_recurso()
    return mcp if valor.rstrip("/") == mcp else valor


def con_recursos_canonicos(parametros: QueryDict) -> QueryDict:
    """These parameters with each `resource` in its canonical form (the library reads them from
    request.GET at the authorization endpoint and request.POST at the token endpoint)."""
    if "resource" not in parametros:
        return parametros
    copia = parametros.copy()
    copia.setlist("resource", [recurso_canonico(v) for v in parametros.getlist("resource")])
    # Immutable again, as Django hands request.GET and request.POST to the library.
    return QueryDict(copia.urlencode(), encoding=parametros.encoding)


def usa_basic(request) -> bool:
    """The request carries HTTP Basic client credentials (RFC 6749 2.3.1)."""
    valor = (request.headers or {}).get("Authorization") or ""
    return valor.split(" ", 1)[0].lower() == "basic"


def metodo_usado(por_basic: bool, en_cuerpo: bool) -> str | None:
    """The RFC 7591 method a token request used; None for two at once (RFC 6749 2.3)."""
    if por_basic and en_cuerpo:
        return None
    if por_basic:
        return MetodoAutenticacion.BASIC
    if en_cuerpo:
        return MetodoAutenticacion.POST
    return MetodoAutenticacion.NINGUNO


def metodos_admitidos(aplicacion: Aplicacion) -> tuple[str, ...]:
    """The methods this client may authenticate with at the token and revocation endpoints."""
    metodo = aplicacion.token_endpoint_auth_method
    if metodo == MetodoAutenticacion.ANTERIOR:
        if aplicacion.client_type != Aplicacion.CLIENT_CONFIDENTIAL:
            return (MetodoAutenticacion.NINGUNO,)
        # Registered before the hub kept the method: either secret method, as then.
        return (MetodoAutenticacion.BASIC, MetodoAutenticacion.POST)
    return (metodo,)


def alcances_concedidos(persona: int, aplicacion: Aplicacion) -> list[str]:
    """The scopes of the last token this person got for this client (within what the server
    offers today), or [] when there is none."""
    ultimo = (
        AccessToken.objects.filter(user_id=persona, application=aplicacion)
        .order_by("-created")
        .values_list("scope", flat=True)
        .first()
    )
    ofrecidos = set(settings.OAUTH2_PROVIDER["SCOPES"])
    return sorted(a for a in (ultimo or "").split() if a in ofrecidos)


class Servidor(WebApplicationServer):
    """Authorization code + refresh; PKCE S256 only; the access token's lifetime per request."""

    def __init__(self, request_validator, **kwargs):
        super().__init__(
            request_validator,
            token_generator=kwargs.get("token_generator"),
            token_expires_in=vigencia_acceso,
            refresh_token_generator=kwargs.get("refresh_token_generator"),
        )
        # The token endpoint's repeats are refused by its view (apps.autorizacion.vistas.Token):
        # the library hands oauthlib only the last value of each body parameter.
        self.auth_grant.custom_validators.pre_auth.extend([sin_repetidos, solo_s256, reto_valido])


# The parameters of OAuth 2.1 and PKCE this server reads. `resource` may repeat (RFC 8707);
# one the server does not know is ignored however often it comes (RFC 6749 3.1).
UNICOS = (
    "response_type",
    "client_id",
    "client_secret",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
    "grant_type",
    "code",
    "code_verifier",
    "refresh_token",
)


def sin_repetidos(request) -> dict:
    """`invalid_request` for a parameter sent twice (RFC 6749 3.1 and 3.2: "MUST NOT be included
    more than once"): oauthlib checks only a few and otherwise keeps the last, so a second
    code_challenge or code_verifier was silently preferred. On the authorization request it runs
    once the client and redirect URI are known (the error goes back to the client)."""
    repetidos = [nombre for nombre in UNICOS if nombre in request.duplicate_params]
    if repetidos:
        raise repetido(repetidos[0], request)
    return {}


def repetido(nombre: str, request=None) -> errors.InvalidRequestError:
    """The `invalid_request` for a parameter sent twice, in oauthlib's words for its own."""
    return errors.InvalidRequestError(description=f"Duplicate {nombre} parameter.", request=request)


def solo_s256(request) -> dict:
    """PKCE S256 alone, refused at the authorization request itself: oauthlib accepts `plain`
    and assumes it when the method is missing. One of oauthlib's documented `pre_auth` custom
    validators, which run once the client and its redirect URI are known (the error goes back to
    the client)."""
    if request.code_challenge is not None and request.code_challenge_method != "S256":
        raise errors.UnsupportedCodeChallengeMethodError(request=request)
    return {}


# RFC 7636 4.2: code_challenge = 43*128unreserved (an S256 challenge is always 43).
RETO = re.compile(r"[A-Za-z0-9\-._~]{43,128}")


def reto_valido(request) -> dict:
    """`invalid_request` for a challenge RFC 7636 would not produce: oauthlib takes any string,
    so a 3-character one (guessable, whatever its method) was accepted."""
    if request.code_challenge is not None and not RETO.fullmatch(request.code_challenge):
        raise errors.InvalidRequestError(
            description="code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "
            '"-", ".", "_" or "~" (RFC 7636 4.2).',
            request=request,
        )
    return {}
