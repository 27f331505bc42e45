"""The profile page: who the user is and their assistant access (personal tokens).

A new token's secret is shown exactly once: the creating POST keeps it in the session only until
the redirected GET shows it (and removes it); answers are never cached.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from apps.mcp import services
from apps.mcp.models import AjustesAsistente, TokenPersonal

CLAVE_SESION = "mcp_token_nuevo"


class FormularioToken(forms.Form):
    nombre = forms.CharField(
        label="Nombre del token",
        max_length=100,
        help_text="Para reconocerlo después, p. ej. «Portátil» o «Asistente de escritorio».",
    )
    dias = forms.TypedChoiceField(label="Vigencia", coerce=int)

    def __init__(self, *args, vigencias: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dias"].choices = [(d, f"{d} días") for d in vigencias]
        self.fields["dias"].initial = 30 if 30 in vigencias else vigencias[-1]


def _configuracion(endpoint: str, token: str | None, exige_clave: bool) -> str:
    """A ready-to-paste MCP client configuration (JSON)."""
    cabeceras = {"X-MCP-User-Token": token or "SU_TOKEN_PERSONAL"}
    if exige_clave:
        cabeceras = {"X-MCP-Api-Key": "CLAVE_DE_API_DE_LA_ORGANIZACION", **cabeceras}
    datos = {"mcpServers": {"hub": {"type": "http", "url": endpoint, "headers": cabeceras}}}
    return json.dumps(datos, indent=2, ensure_ascii=False)


def _revocar(request: HttpRequest) -> HttpResponse | TokenPersonal:
    """Revoke one of the user's own tokens once confirmed; before that, the token to confirm."""
    try:
        token_id = int(request.POST.get("token_id", ""))
    except ValueError:
        raise Http404 from None
    try:
        token = TokenPersonal.objects.get(pk=token_id, usuario=request.user)
    except TokenPersonal.DoesNotExist:
        raise Http404 from None  # another person's token does not exist for this user
    if request.POST.get("confirmado") != "si":
        return token  # the page shows the confirmation step for this token
    services.revocar_token_personal(usuario=request.user, token_id=token.pk)
    messages.success(request, f"El token «{token.nombre}» quedó revocado.")
    return redirect("cuentas:perfil")


@never_cache
@login_required
def perfil(request: HttpRequest) -> HttpResponse:
    ajustes = AjustesAsistente.cargar()
    usuario = request.user
    puede_crear = usuario.has_perm(services.PERMISO_USAR)
    vigencias = services.vigencias_permitidas(ajustes)
    formulario = FormularioToken(vigencias=vigencias)
    por_confirmar = None

    if request.method == "POST":
        accion = request.POST.get("accion")
        if accion == "crear":
            if not puede_crear:
                return HttpResponse("Su usuario no tiene acceso al asistente.", status=403)
            formulario = FormularioToken(request.POST, vigencias=vigencias)
            if formulario.is_valid():
                try:
                    token, secreto = services.crear_token_personal(
                        usuario=usuario,
                        nombre=formulario.cleaned_data["nombre"],
                        dias=formulario.cleaned_data["dias"],
                    )
                except services.ErrorCredencial as exc:
                    formulario.add_error(None if exc.campo == "__all__" else exc.campo, exc.mensaje)
                else:
                    request.session[CLAVE_SESION] = {"id": token.pk, "secreto": secreto}
                    return redirect("cuentas:perfil")
        elif accion == "revocar":
            respuesta = _revocar(request)
            if isinstance(respuesta, HttpResponse):
                return respuesta
            por_confirmar = respuesta
        else:
            return HttpResponseBadRequest("Acción desconocida.")

    nuevo = request.session.pop(CLAVE_SESION, None)
    nuevo_token = None
    if nuevo is not None:
        nuevo_token = TokenPersonal.objects.filter(pk=nuevo["id"], usuario=usuario).first()
    secreto = nuevo["secreto"] if nuevo_token is not None else None
    endpoint = request.build_absolute_uri(reverse("mcp:api"))
    contexto = {
        "puede_crear": puede_crear,
        "formulario": formulario,
        "tokens": list(TokenPersonal.objects.filter(usuario=usuario).order_by("-creado")),
        "nuevo_token": nuevo_token,
        "secreto": secreto,
        "por_confirmar": por_confirmar,
        "endpoint": endpoint,
        "configuracion": _configuracion(endpoint, secreto, not ajustes.permitir_token_solo),
        "exige_clave": not ajustes.permitir_token_solo,
        "token_max_dias": ajustes.token_max_dias,
        "areas": list(usuario.areas.order_by("nombre")),
        "roles": list(usuario.groups.order_by("name").values_list("name", flat=True)),
    }
    return render(request, "cuentas/perfil.html", contexto)
