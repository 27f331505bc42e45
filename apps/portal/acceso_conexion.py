"""The page where a person narrows or widens one of their connected applications: the areas it
may reach and whether it may write, never beyond what the application asked for; applied at
once (apps.autorizacion.services.ajustar_conexion)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from apps.autorizacion import conexiones
from apps.autorizacion import services as servicios_oauth
from apps.autorizacion.accesos import ALCANCE_ESCRIBIR
from apps.mcp import areas


@never_cache
@login_required
def acceso_conexion(request: HttpRequest, aplicacion_id: int) -> HttpResponse:
    """GET: the connection's areas and writing, as they are and as far as they may go; POST
    (with CSRF): the new choice, applied to every live token of the application."""
    conexion = next(
        (c for c in conexiones.conexiones_de(request.user) if c.aplicacion_id == aplicacion_id),
        None,
    )
    if conexion is None:  # another person's, or not connected: it does not exist for them
        raise Http404
    actuales = set(conexion.alcances)
    tope = servicios_oauth.alcances_pedidos(
        usuario_id=request.user.pk, aplicacion_id=aplicacion_id, actuales=actuales
    )
    concedidas = areas.de_alcances(actuales)
    posibles = areas.ordenadas(areas.nombradas(tope))
    marcadas, escribir, error = set(concedidas), ALCANCE_ESCRIBIR in actuales, None
    if request.method == "POST":
        marcadas = set(request.POST.getlist("areas")) & set(posibles)
        escribir = bool(request.POST.get("escribir")) and ALCANCE_ESCRIBIR in tope
        try:
            servicios_oauth.ajustar_conexion(
                usuario_id=request.user.pk,
                aplicacion_id=aplicacion_id,
                areas_elegidas=marcadas,
                escribir=escribir,
            )
        except servicios_oauth.ErrorAjuste as exc:
            error = str(exc)
        else:
            messages.success(
                request,
                f"El acceso de «{conexion.nombre}» cambió: ya rige para sus tokens.",
            )
            return redirect(reverse("cuentas:perfil") + "#aplicaciones")
    contexto = {
        "conexion": conexion,
        "areas": [
            {
                "codigo": codigo,
                "titulo": areas.AREAS[codigo][0],
                "texto": areas.AREAS[codigo][1],
                "marcada": codigo in marcadas,
                "concedida": codigo in concedidas,
            }
            for codigo in posibles
        ],
        "puede_pedir_escribir": ALCANCE_ESCRIBIR in tope,
        "escribir": escribir,
        "error": error,
    }
    return render(request, "cuentas/acceso_conexion.html", contexto, status=400 if error else 200)
