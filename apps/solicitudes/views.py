"""The signed-in person's screens: home (their inbox and their requests), all their tasks, and a
request with the actions the services allow them (apps/solicitudes/pantalla.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from apps.cuentas import intentos
from apps.solicitudes import pantalla, selectors, services
from apps.solicitudes.errores import DatosInvalidos, ErrorSolicitud, SolicitudCambio
from apps.solicitudes.models import Solicitud

BANDEJA = "solicitudes.bandeja.ver"  # the permission of mis_tareas
TAREAS_EN_INICIO = 20
TAREAS_POR_PAGINA = 20
SOLICITUDES_POR_PAGINA = 20
NO_DISPONIBLE = "La solicitud no existe o no está disponible."


@login_required
@require_safe
def inicio(request: HttpRequest) -> HttpResponse:
    """/: "Mis tareas" (the inbox of mis_tareas) and "Mis solicitudes" (those the person filed)."""
    usuario = request.user
    contexto: dict = {"con_bandeja": usuario.has_perm(BANDEJA)}
    if contexto["con_bandeja"]:
        ahora = timezone.now()
        contexto["cuentas"] = selectors.contar_bandeja(usuario, "rol", ahora=ahora)
        contexto["tareas"] = [
            _linea_de_tarea(t, usuario, ahora)
            for t in selectors.bandeja(usuario, "rol", ahora=ahora, limite=TAREAS_EN_INICIO)
        ]
    # The `mias` of the tools: what the person filed, drafts included (the list reads only the
    # type and the stage, hence `para_busqueda`).
    suyas = Solicitud.objects.del_solicitante(usuario).para_busqueda()
    contexto["pagina"] = Paginator(suyas, SOLICITUDES_POR_PAGINA).get_page(
        request.GET.get("pagina")
    )
    for parte in pantalla.EN_EL_INICIO:
        contexto.update(parte(usuario))
    return render(request, "solicitudes/inicio.html", contexto)


@login_required
@require_safe
def tareas(request: HttpRequest) -> HttpResponse:
    """/solicitudes/tareas: every pending task of the person's inbox, most urgent first, paged."""
    usuario = request.user
    if not usuario.has_perm(BANDEJA):
        raise PermissionDenied
    ahora = timezone.now()
    bandeja = selectors.BandejaPaginable(usuario, "rol", ahora=ahora)
    pagina = Paginator(bandeja, TAREAS_POR_PAGINA).get_page(request.GET.get("pagina"))
    contexto = {
        "cuentas": bandeja.cuentas,
        "pagina": pagina,
        "tareas": [_linea_de_tarea(t, usuario, ahora) for t in pagina],
    }
    return render(request, "solicitudes/tareas.html", contexto)


def _linea_de_tarea(t, usuario, ahora) -> dict:
    return {
        "tarea": t,
        "solicitud": t.solicitud,
        "vencida": t.vencida_en(ahora),
        "por_vencer": t.por_vencer_en(ahora),
        "asignada_a_mi": t.asignada_a_usuario(usuario),
    }


@login_required
@require_safe
def detalle(request: HttpRequest, pk: int) -> HttpResponse:
    """One request, if the person may see it (otherwise 404, as if it did not exist), with the
    actions the services allow them."""
    solicitud = pantalla.solicitud_visible(request.user, pk)
    if solicitud is None:
        raise Http404(NO_DISPONIBLE)
    return render(request, "solicitudes/detalle.html", pantalla.contexto(request.user, solicitud))


@login_required
@require_http_methods(["GET", "POST"])
def actuar(request: HttpRequest, pk: int, accion: str) -> HttpResponse:
    """POST /solicitudes/<pk>/<accion>: one action through its service, then back to the page.

    Rejecting and annulling show a confirmation page first (GET, or a POST without
    `confirmar=si`). A refusal of the service redraws the page with its reason: 403 not allowed,
    409 not in this state, 422 bad input (what was typed is kept).
    """
    definicion = pantalla.ACCIONES.get(accion) if accion != "firmar" else None
    solicitud = pantalla.solicitud_visible(request.user, pk) if definicion else None
    if solicitud is None:
        raise Http404(NO_DISPONIBLE)
    if request.method == "GET" and not definicion.confirmar:
        return HttpResponseNotAllowed(["POST"])
    contexto = pantalla.contexto(request.user, solicitud)
    if definicion.confirmar:
        contexto |= {"accion": definicion, "clave": accion}
        contexto["pregunta"] = definicion.pregunta.format(numero=solicitud.numero_visible)
        if request.method == "GET" or request.POST.get("confirmar") != "si":
            # The question only to whom may answer it; a confirmed POST meets the service.
            if not contexto["ofrece"][accion]:
                contexto["error"] = pantalla.NO_SE_PUEDE
                return render(request, "solicitudes/detalle.html", contexto, status=403)
            contexto["valores"] = {definicion.campo: request.POST.get(definicion.campo, "")}
            return render(request, "solicitudes/confirmar.html", contexto)
    try:
        mensaje = pantalla.ejecutar(
            accion, solicitud=solicitud, actor=request.user, datos=request.POST
        )
    except SolicitudCambio as error:
        return _cambio(request, solicitud, error)
    except ErrorSolicitud as error:
        status = pantalla.estado_http(error)
        if status == 404:
            raise Http404(NO_DISPONIBLE) from error
        if accion == "comentar":
            contexto["nonce"] = request.POST.get("nonce", "")  # kept until a comment uses it
        contexto |= {
            "error": error.detalle,
            "errores": error.campos or {},
            "fallida": accion,
            "valores": {definicion.campo: request.POST.get(definicion.campo, "")},
        }
        if accion == "corregir" and contexto["correccion"] is not None:
            contexto["correccion"] = pantalla.formulario_correccion(
                solicitud, contexto["campos"], datos=request.POST, errores=error.campos
            )
        plantilla = "confirmar" if definicion.confirmar else "detalle"
        return render(request, f"solicitudes/{plantilla}.html", contexto, status=status)
    messages.success(request, mensaje)
    return redirect(solicitud.enlace + ("#comentarios" if accion == "comentar" else ""))


def _cambio(request: HttpRequest, solicitud: Solicitud, error: SolicitudCambio) -> HttpResponse:
    """409: the form was drawn for the request as it was before; nothing was done."""
    actual = pantalla.solicitud_visible(request.user, solicitud.pk) or solicitud
    # The heading says that it changed; the alert, only why nothing was done.
    _titulo, _, razon = error.detalle.partition(": ")
    contexto = {"solicitud": actual, "detalle": (razon[:1].upper() + razon[1:]) or error.detalle}
    return render(request, "solicitudes/cambio.html", contexto, status=409)


@login_required
@require_http_methods(["GET", "POST"])
def firmar(request: HttpRequest, pk: int) -> HttpResponse:
    """/solicitudes/<pk>/firmar: the text to sign and the person's password (again).

    A wrong password re-renders the page with its error and counts against the sign-in brake of
    the signed-in account (apps.cuentas.intentos), as a failed sign-in would.
    """
    if request.method == "POST":
        # The brake counts the account in session, whatever name the post carries.
        datos = request.POST.copy()
        datos["username"] = request.user.get_username()
        request.POST = datos
    return _firmar(request, pk)


@intentos.limitar_ingreso
def _firmar(request: HttpRequest, pk: int) -> HttpResponse:
    usuario = request.user
    solicitud = pantalla.solicitud_visible(usuario, pk)
    if solicitud is None:
        raise Http404(NO_DISPONIBLE)
    contexto = pantalla.contexto(usuario, solicitud)
    if not contexto["ofrece"]["firmar"]:
        contexto["error"] = pantalla.NO_SE_PUEDE
        return render(request, "solicitudes/detalle.html", contexto, status=403)
    contexto["texto_firma"] = services.texto_de_firma(solicitud)
    # The number kept on one line (a browser breaks lines at its hyphens).
    contexto["partes_firma"] = contexto["texto_firma"].partition(solicitud.numero_visible)
    contexto["siguiente"] = solicitud.etapa_actual.siguiente()
    if request.method == "GET":
        return render(request, "solicitudes/firmar.html", contexto)
    try:
        services.firmar(
            solicitud=solicitud,
            actor=usuario,
            contrasena=str(request.POST.get("contrasena", "")),
            version=pantalla.version_del_formulario(request.POST),
            texto=str(request.POST.get("texto", "")),
        )
    except SolicitudCambio as error:
        return _cambio(request, solicitud, error)
    except DatosInvalidos as error:
        if error.campos and "contrasena" in error.campos:
            user_login_failed.send(
                sender=__name__,
                credentials={"username": usuario.get_username()},
                request=request,
            )
        contexto |= {"error": error.detalle, "errores": error.campos or {}}
        return render(request, "solicitudes/firmar.html", contexto, status=422)
    except ErrorSolicitud as error:
        contexto["error"] = error.detalle
        status = pantalla.estado_http(error)
        return render(request, "solicitudes/detalle.html", contexto, status=status)
    messages.success(
        request, pantalla.ACCIONES["firmar"].exito.format(numero=solicitud.numero_visible)
    )
    return redirect(solicitud.enlace)
