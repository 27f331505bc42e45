"""The profile page: who the user is and their assistant access (personal tokens, and the
applications they connected with an OAuth sign-in, each with "Desconectar").

A new token's secret is shown exactly once, on the page the creating POST redirects to; across
that redirect it never rests in clear on the server (apps.mcp.entrega). Answers are never cached.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from apps.autorizacion import conexiones
from apps.autorizacion import services as servicios_oauth
from apps.cuentas.avisos import avisar_acceso_nuevo
from apps.cuentas.clientes_mcp import configuraciones
from apps.cuentas.correo import tras_responder
from apps.mcp import recurso, services
from apps.mcp.entrega import Entrega
from apps.mcp.models import AjustesAsistente, TokenPersonal
from apps.portal.formularios import FormularioToken

ENTREGA_TOKEN = Entrega("token", "/cuentas/perfil/")
SIN_ACCESO = "Su usuario no tiene acceso al asistente."


def _token_propio(request: HttpRequest) -> TokenPersonal:
    """The token named in the POST, if it is the person's own (another's does not exist)."""
    try:
        token_id = int(request.POST.get("token_id", ""))
    except ValueError:
        raise Http404 from None
    token = TokenPersonal.objects.filter(pk=token_id, usuario=request.user).first()
    if token is None:
        raise Http404
    return token


def _entregar(request: HttpRequest, token: TokenPersonal, secreto: str) -> HttpResponse:
    """Redirect to the page that shows the new secret once; the person gets word of the new
    token by e-mail (created or regenerated: either is a new token in their name)."""
    avisar_acceso_nuevo(
        request, usuario=request.user, tipo="token", nombre=token.nombre, cuando=token.creado
    )
    respuesta = redirect(reverse("cuentas:perfil") + "#token-nuevo")
    ENTREGA_TOKEN.guardar(request, respuesta, ident=token.pk, secreto=secreto)
    return respuesta


def _estado(token: TokenPersonal, con_acceso: bool, ahora: datetime) -> tuple[str, str]:
    """(CSS class, words) of a token as its owner sees it."""
    estado = token.estado
    if estado != "activo":
        return estado, estado
    if not con_acceso:
        return "sin-acceso", "sin acceso"  # the endpoint answers 403: not usable now
    if token.por_vencer(ahora):
        return "por-vencer", "vence pronto"
    return "activo", "activo"


def _accion(request: HttpRequest, con_acceso: bool) -> HttpResponse | tuple[str, TokenPersonal]:
    """Revoke or regenerate once confirmed; before that, what to confirm."""
    accion = request.POST["accion"]
    token = _token_propio(request)
    if request.POST.get("confirmado") != "si":
        return accion, token
    if accion == "revocar":
        services.revocar_token_personal(usuario=request.user, token_id=token.pk)
        messages.success(request, f"El token «{token.nombre}» quedó revocado.")
        return redirect("cuentas:perfil")
    if not con_acceso:
        return HttpResponse(SIN_ACCESO, status=403)
    try:
        nuevo, secreto = services.regenerar_token_personal(usuario=request.user, token_id=token.pk)
    except services.ErrorCredencial as exc:
        messages.error(request, exc.mensaje)
        return redirect("cuentas:perfil")
    return _entregar(request, nuevo, secreto)


def _desconectar(request: HttpRequest) -> HttpResponse:
    """Revoke every token of one of the person's connected applications (another's: 404)."""
    try:
        aplicacion_id = int(request.POST.get("aplicacion_id", ""))
    except ValueError:
        raise Http404 from None
    conexion = next(
        (c for c in conexiones.conexiones_de(request.user) if c.aplicacion_id == aplicacion_id),
        None,
    )
    if conexion is None:
        raise Http404
    servicios_oauth.desconectar(usuario_id=request.user.pk, aplicacion_id=aplicacion_id)
    messages.success(
        request,
        f"«{conexion.nombre}» quedó desconectada: sus tokens dejaron de funcionar. Para usarla "
        "otra vez, conéctela de nuevo desde el asistente.",
    )
    return redirect(reverse("cuentas:perfil") + "#aplicaciones")


@tras_responder
@never_cache
@login_required
def perfil(request: HttpRequest) -> HttpResponse:
    ajustes = AjustesAsistente.cargar()
    usuario = request.user
    con_acceso = services.puede_usar(usuario)
    opciones = {
        "vigencias": services.vigencias_permitidas(ajustes),
        "maximo": ajustes.token_max_dias,
    }
    formulario = FormularioToken(**opciones)
    por_confirmar = None

    if request.method == "POST":
        accion = request.POST.get("accion")
        if accion == "crear":
            if not con_acceso:
                return HttpResponse(SIN_ACCESO, status=403)
            formulario = FormularioToken(request.POST, **opciones)
            if formulario.is_valid():
                try:
                    token, secreto = services.crear_token_personal(
                        usuario=usuario,
                        nombre=formulario.cleaned_data["nombre"],
                        areas_elegidas=formulario.cleaned_data["areas"],
                        **formulario.vigencia(),
                    )
                except services.ErrorCredencial as exc:
                    formulario.add_error(None if exc.campo == "__all__" else exc.campo, exc.mensaje)
                else:
                    return _entregar(request, token, secreto)
        elif accion == "desconectar":
            return _desconectar(request)
        elif accion in ("revocar", "regenerar"):
            resultado = _accion(request, con_acceso)
            if isinstance(resultado, HttpResponse):
                return resultado
            por_confirmar = resultado
        else:
            return HttpResponseBadRequest("Acción desconocida.")

    pendiente = ENTREGA_TOKEN.pendiente(request)
    ahora = timezone.now()
    tokens = list(TokenPersonal.objects.filter(usuario=usuario).order_by("-creado"))
    for token in tokens:
        token.clase_estado, token.texto_estado = _estado(token, con_acceso, ahora)
    nuevo_token = secreto = None
    if pendiente is not None:
        # The new token is one of the person's own: in the list just read.
        nuevo_token = next((t for t in tokens if t.pk == pendiente.ident), None)
    if nuevo_token is not None:
        secreto = ENTREGA_TOKEN.revelar(request, pendiente, nuevo_token.digest)
    endpoint = request.build_absolute_uri(reverse("mcp:api"))
    exige_clave = not ajustes.permitir_token_solo
    contexto = {
        "con_acceso": con_acceso,
        "formulario": formulario,
        "tokens": tokens,
        "por_vencer": [t for t in tokens if t.clase_estado == "por-vencer"],
        "nuevo_token": nuevo_token,
        "secreto": secreto,
        "por_confirmar": por_confirmar,
        "endpoint": endpoint,
        "configuraciones": configuraciones(endpoint, secreto, exige_clave),
        "exige_clave": exige_clave,
        "aplicaciones": conexiones.conexiones_de(usuario),
        # OAuth tokens are bound to the public address (RFC 8707), not to this request's Host.
        "direccion_oauth": recurso.url_recurso(),
        "oauth_habilitado": ajustes.oauth_habilitado,
        "token_max_dias": ajustes.token_max_dias,
        "areas": list(usuario.areas.order_by("nombre")),
        "roles": list(usuario.groups.order_by("name").values_list("name", flat=True)),
    }
    respuesta = render(request, "cuentas/perfil.html", contexto)
    ENTREGA_TOKEN.cerrar(request, respuesta)
    return respuesta
