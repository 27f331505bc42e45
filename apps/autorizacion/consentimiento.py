"""The authorization endpoint as people meet it: the hub's sign-in page, then a consent page.

The library's AuthorizationView validates the request (client, redirect URI, PKCE S256, scopes,
resource) and issues the code; what is the hub's: the page itself (Spanish, branded, naming the
client as it registered and whether an administrator verified it, the host people go back to,
who is signing in, and what the assistant may do), the write scope as a choice the person can
untick, a person who may not use the assistant never getting a code, and a person who already
approved this client for these scopes not being asked again.

An error found before any hub page was shown goes back to the client only when its address is
vouched for (reconocidas.redirige_errores); anyone else's is shown on the hub's page with the
address as a link the person may follow (RFC 9700 4.11.2). `prompt=none` included: a person who
never approved the client gets `consent_required` (OpenID Connect Core 3.1.2.6), not the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.http import OAuth2ResponseRedirect
from oauth2_provider.models import AccessToken
from oauth2_provider.oauth2_validators import is_valid_resource_uri
from oauth2_provider.views import AuthorizationView
from oauthlib.oauth2.rfc6749 import errors

from apps.autorizacion import reconocidas, redirecciones, servidor
from apps.autorizacion import services as servicios_oauth
from apps.autorizacion.accesos import ALCANCE_ESCRIBIR, ALCANCE_LEER
from apps.autorizacion.models import Aplicacion
from apps.cuentas.avisos import avisar_acceso_nuevo
from apps.cuentas.correo import tras_responder
from apps.cuentas.models import User
from apps.mcp import areas
from apps.mcp import services as servicios_asistente
from hub.http import seguridad

PLANTILLA = "autorizacion/consentimiento.html"
DESCRIPCIONES = {
    ALCANCE_LEER: (
        "Consultar en su nombre",
        "Las herramientas de lectura del asistente: solicitudes, presupuesto, documentos y "
        "ayuda, con sus mismos permisos.",
    ),
    ALCANCE_ESCRIBIR: (
        "Escribir en su nombre",
        "Comentar solicitudes y radicar en la mesa de ayuda. Cada escritura le muestra antes "
        "una vista previa y necesita su confirmación.",
    ),
}
# What each error the endpoint may send back means, for the person (the code stays as it is).
ERRORES = {
    "invalid_request": "La solicitud de la aplicación está incompleta o mal formada.",
    "invalid_scope": "La aplicación pidió permisos que este hub no ofrece.",
    "unsupported_response_type": "La aplicación pidió un tipo de respuesta que este hub no admite.",
    "unauthorized_client": "Esta aplicación no puede pedir acceso de esta forma.",
    "invalid_target": "La aplicación pidió acceso a un recurso que no es válido.",
    "access_denied": "Su usuario no puede conectar aplicaciones.",
    "consent_required": (
        "La aplicación pidió conectarse sin mostrarle esta página, y usted todavía no la ha "
        "autorizado."
    ),
    "login_required": (
        "La aplicación pidió conectarse sin que usted ingrese, y usted no ha ingresado al hub."
    ),
    "server_error": "El hub no pudo atender la solicitud. Inténtelo de nuevo más tarde.",
    "temporarily_unavailable": "El hub no pudo atender la solicitud. Inténtelo de nuevo más tarde.",
}


def error_para(clase: type[errors.OAuth2Error], credenciales: dict) -> OAuthToolkitError:
    """An error of a validated request, addressed to its redirect URI with its state."""
    error = clase(state=credenciales.get("state"))
    error.redirect_uri = credenciales["redirect_uri"]
    error.client_id = credenciales["client_id"]
    return OAuthToolkitError(error=error)


def motivo_sin_acceso(usuario: User) -> str | None:
    """Why this person may not connect an assistant, or None when they may."""
    if not usuario.is_active:
        return "Su cuenta está bloqueada: no puede conectar aplicaciones."
    if not servicios_asistente.puede_usar(usuario):
        return (
            "Su usuario no tiene acceso al asistente. Si lo necesita, pídalo al administrador "
            "de la plataforma."
        )
    return None


def ya_aprobado(usuario: User, aplicacion: Aplicacion, alcances: list[str]) -> set[str] | None:
    """The scopes to issue again without asking, when the person approved this client for (at
    least) these scopes and the connection lives (a token still valid, or one whose refresh
    token was not revoked); None otherwise. The areas are always named: the ones asked for, or
    else those of the approval (every area for an approval from before areas existed)."""
    vivos = AccessToken.objects.filter(user=usuario, application=aplicacion).filter(
        Q(expires__gt=timezone.now()) | Q(refresh_token__revoked__isnull=True)
    )
    pedidos = set(alcances)
    for scope in vivos.values_list("scope", flat=True):
        concedidos = servicios_oauth.explicitos(set(scope.split()))
        if pedidos <= concedidos:
            if areas.nombradas(pedidos):
                return pedidos
            return pedidos | {a for a in concedidos if a in areas.POR_ALCANCE}
    return None


@method_decorator(tras_responder, name="dispatch")  # the notice of a new connection leaves after
class Autorizacion(AuthorizationView):
    """GET: the consent page (or straight back when already approved); POST: the decision."""

    template_name = PLANTILLA

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        # Who asks, for a request without `scope` (servidor.Validador.get_default_scopes).
        request.META[servidor.PERSONA] = request.user.pk
        request.GET = servidor.con_recursos_canonicos(request.GET)
        try:
            alcances, credenciales = self.validate_authorization_request(request)
        except OAuthToolkitError as error:
            if self.cliente_desconocido(error, request):
                return self.agregar_de_nuevo()
            return self.error_response(error, application=None)
        aplicacion = Aplicacion.objects.get(client_id=credenciales["client_id"])
        prompt = request.GET.get("prompt", "").split()
        if (motivo := motivo_sin_acceso(request.user)) is not None:
            if "none" in prompt:  # no page may be shown: the client hears no
                return self.error_response(
                    error_para(errors.AccessDeniedError, credenciales), aplicacion
                )
            return self.sin_acceso(aplicacion, credenciales, alcances, motivo)
        recursos = request.GET.getlist("resource")
        pide_consentimiento = "consent" in prompt
        aprobados = None if pide_consentimiento else ya_aprobado(request.user, aplicacion, alcances)
        if aprobados is not None and all(is_valid_resource_uri(r) for r in recursos):
            if recursos:
                credenciales["resource"] = recursos
            try:
                uri, _, _, _ = self.create_authorization_response(
                    request=request,
                    scopes=" ".join(sorted(aprobados)),
                    credentials=credenciales,
                    allow=True,
                )
            except OAuthToolkitError as error:
                return self.error_response(error, aplicacion)
            return self.redirect(uri, aplicacion)
        if "none" in prompt and all(is_valid_resource_uri(r) for r in recursos):
            # The consent page would be needed, and the client asked for none (an invalid
            # resource is left to the library: `invalid_target`).
            return self.error_response(error_para(errors.ConsentRequired, credenciales), aplicacion)
        return super().get(request, *args, **kwargs)

    def handle_no_permission(self):
        """Signed out with `prompt=none`: `login_required` under the same rule as every error
        (the library would redirect it to any registered address)."""
        if "none" not in self.request.GET.get("prompt", "").split():
            return super().handle_no_permission()
        try:
            _, credenciales = self.validate_authorization_request(self.request)
        except OAuthToolkitError as error:
            return self.error_response(error, application=None)
        aplicacion = Aplicacion.objects.filter(client_id=credenciales["client_id"]).first()
        return self.error_response(error_para(errors.LoginRequired, credenciales), aplicacion)

    def error_response(self, error, application, **kwargs):
        # Before any hub page was shown (a GET), the error goes back only to a vouched address.
        # After the consent page (a POST), the person chose: its answer goes back as usual.
        oauthlib_error = error.oauthlib_error
        destino = oauthlib_error.redirect_uri or ""
        if self.request.method != "GET" or isinstance(error, FatalClientError) or not destino:
            return super().error_response(error, application, **kwargs)
        if application is None:
            application = Aplicacion.objects.filter(client_id=oauthlib_error.client_id).first()
        if reconocidas.redirige_errores(destino, application):
            return super().error_response(error, application, **kwargs)
        separador = "&" if "?" in destino else "?"
        contexto = {
            "error": oauthlib_error,
            "explicacion": ERRORES.get(oauthlib_error.error, ERRORES["invalid_request"]),
            "enlace_cliente": destino + separador + oauthlib_error.urlencoded,
            "anfitrion_retorno": redirecciones.anfitrion(destino),
        }
        return self.render_to_response(contexto, status=oauthlib_error.status_code)

    @staticmethod
    def cliente_desconocido(error: OAuthToolkitError, request: HttpRequest) -> bool:
        """The request names a client id the hub does not have (deleted, purged, or never
        registered): not one that exists and is switched off."""
        if not isinstance(error.oauthlib_error, errors.InvalidClientIdError):
            return False
        client_id = request.GET.get("client_id", "")
        return "\x00" in client_id or not Aplicacion.objects.filter(client_id=client_id).exists()

    def agregar_de_nuevo(self) -> HttpResponse:
        """The hub's own page for a client it no longer knows: nothing to redirect to (RFC 6749
        4.1.2.1, the redirect URI cannot be checked), so it tells the person what to do."""
        return TemplateResponse(self.request, PLANTILLA, {"desconocido": True}, status=400)

    def sin_acceso(self, aplicacion, credenciales, alcances, motivo: str) -> HttpResponse:
        """The page that says why, with a way back to the client (which then gets
        access_denied): never a code."""
        self.oauth2_data = {**credenciales, "scope": alcances}
        contexto = self.get_context_data(
            form=self.get_form(self.get_form_class()),
            application=aplicacion,
            motivo=motivo,
            redirect_uri=credenciales.get("redirect_uri"),
        )
        return self.render_to_response(contexto, status=403)

    def redirect(self, redirect_to: str, application) -> HttpResponse:
        # An error found while validating the request names no application to the library,
        # which then allows https only; by then the redirect URI was checked against the
        # client's registered ones, which may be loopback http or a private-use scheme.
        if application is None and redirecciones.permitida(redirect_to):
            return OAuth2ResponseRedirect(redirect_to, redirecciones.esquemas([redirect_to]))
        return super().redirect(redirect_to, application)

    def render_to_response(self, context, **kwargs) -> HttpResponse:
        respuesta = super().render_to_response(context, **kwargs)
        origen = redirecciones.origen(context.get("redirect_uri") or "")
        if origen:
            # The decision's POST ends in a redirect to the client: the page's form-action must
            # allow that one origin (the registered, validated redirect URI's).
            respuesta["Content-Security-Policy"] = seguridad.politica(
                self.request.csp_nonce, (origen,)
            )
        return respuesta

    def get_context_data(self, **kwargs):
        contexto = super().get_context_data(**kwargs)
        aplicacion = contexto.get("application")
        alcances = contexto.get("scopes") or []
        contexto["alcances"] = [
            {"codigo": a, "titulo": DESCRIPCIONES[a][0], "texto": DESCRIPCIONES[a][1]}
            for a in sorted(alcances, key=lambda a: a != ALCANCE_LEER)
            if a in DESCRIPCIONES
        ]
        contexto["pide_escribir"] = ALCANCE_ESCRIBIR in alcances
        marcadas = getattr(self, "areas_marcadas", None)
        contexto["areas"] = [
            {
                "codigo": codigo,
                "titulo": areas.AREAS[codigo][0],
                "texto": areas.AREAS[codigo][1],
                "marcada": marcadas is None or codigo in marcadas,
            }
            for codigo in areas.ordenadas(areas.de_alcances(alcances))
        ]
        destino = contexto.get("redirect_uri") or ""
        if aplicacion is not None:
            presentacion = reconocidas.presentar(aplicacion, destino)
            contexto["presentacion"] = presentacion
            contexto["nombre_cliente"] = presentacion.como_se_llama
        contexto["anfitrion_retorno"] = redirecciones.anfitrion(destino)
        return contexto

    def form_valid(self, form):
        client_id = form.cleaned_data.get("client_id")
        aplicacion = Aplicacion.objects.filter(client_id=client_id).first()
        if aplicacion is None or not aplicacion.usable_ahora():
            return self.render_to_response(
                {"error": {"description": "La aplicación no existe o está deshabilitada."}},
                status=400,
            )
        if form.cleaned_data.get("allow"):
            if (motivo := motivo_sin_acceso(self.request.user)) is not None:
                # A forged "allow" from someone who may not connect: still no code.
                return self.render_to_response({"motivo": motivo}, status=403)
            pedidos = set(form.cleaned_data.get("scope", "").split())
            # The areas offered are those asked for (every area when none was named); the
            # person keeps at least one, and the grant names them all explicitly.
            ofrecidas = areas.de_alcances(pedidos)
            elegidas = ofrecidas & set(self.request.POST.getlist("areas"))
            if not elegidas:
                return self.sin_areas(form, aplicacion, pedidos)
            alcances = {a for a in pedidos if a not in areas.POR_ALCANCE}
            alcances |= {areas.alcance(a) for a in elegidas}
            if not self.request.POST.get("escribir"):
                alcances.discard(ALCANCE_ESCRIBIR)
            alcances.add(ALCANCE_LEER)  # every connection reads; writing is the choice
            form.cleaned_data["scope"] = " ".join(sorted(alcances))
            servicios_oauth.registrar_pedido(
                usuario_id=self.request.user.pk, aplicacion_id=aplicacion.pk, alcances=pedidos
            )
            # A first connection of this client by this person (none alive now) is news to them.
            nueva = not ya_aprobado(self.request.user, aplicacion, [])
            respuesta = super().form_valid(form)
            if nueva and "code=" in respuesta.get("Location", ""):
                avisar_acceso_nuevo(
                    self.request,
                    usuario=self.request.user,
                    tipo="aplicacion",
                    nombre=aplicacion.nombre_visible,
                )
            return respuesta
        return super().form_valid(form)

    def sin_areas(self, form, aplicacion: Aplicacion, pedidos: set[str]) -> HttpResponse:
        """No area ticked: the same page again, saying so; nothing is granted."""
        self.areas_marcadas = frozenset()
        contexto = self.get_context_data(
            form=form,
            application=aplicacion,
            scopes=sorted(pedidos),
            redirect_uri=form.cleaned_data.get("redirect_uri"),
            error_areas="Elija al menos un área a la que la aplicación pueda acceder.",
            escribir_marcado=bool(self.request.POST.get("escribir")),
        )
        return self.render_to_response(contexto, status=400)


@dataclass(frozen=True)
class Espera:
    """An authorization request waiting for a sign-in: who asks, and the origin the chain of
    redirects after the sign-in form ends at (its form-action must allow it)."""

    presentacion: reconocidas.Presentacion
    origen: str


def pedido_en_espera(destino: str) -> Espera | None:
    """The authorization request a sign-in's `next` continues, validated as the endpoint will
    validate it; None for any other destination. An invalid request waits too when its error
    will go back to its (validated) redirect URI after the sign-in; otherwise the error is the
    hub's page, and the form needs no other target."""
    try:
        partes = urlsplit(destino)
    except ValueError:
        return None
    if partes.scheme or partes.netloc or partes.path != reverse("oauth2_provider:authorize"):
        return None
    servidor = Autorizacion.get_oauthlib_core().server
    try:
        _, credenciales = servidor.validate_authorization_request(destino, http_method="GET")
        client_id, uri = credenciales.get("client_id"), credenciales.get("redirect_uri") or ""
    except errors.FatalClientError:  # unknown client or redirect URI: nowhere to go back to
        return None
    except errors.OAuth2Error as error:  # raised once the client and its redirect URI passed
        client_id, uri = error.client_id, error.redirect_uri or ""
        aplicacion = Aplicacion.objects.filter(client_id=client_id).first() if uri else None
        if not reconocidas.redirige_errores(uri, aplicacion):
            return None
    aplicacion = Aplicacion.objects.filter(client_id=client_id).first()
    if aplicacion is None or not uri:
        return None
    return Espera(reconocidas.presentar(aplicacion, uri), redirecciones.origen(uri))
