"""The signed-in person's screens: home (their inbox and their requests) and a request."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from apps.presupuesto import pantallas
from apps.presupuesto.herramientas.permisos import PERSONALIZADOS
from apps.solicitudes import selectors
from apps.solicitudes.models import Solicitud

BANDEJA = "solicitudes.bandeja.ver"  # the permission of mis_tareas
TAREAS_EN_INICIO = 20
SOLICITUDES_POR_PAGINA = 20


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
            {
                "tarea": t,
                "solicitud": t.solicitud,
                "vencida": t.vencida_en(ahora),
                "por_vencer": t.por_vencer_en(ahora),
                "asignada_a_mi": t.asignada_a_usuario(usuario),
            }
            for t in selectors.bandeja(usuario, "rol", ahora=ahora, limite=TAREAS_EN_INICIO)
        ]
    # The `mias` of the tools: what the person filed, drafts included (the list reads only the
    # type and the stage, hence `para_busqueda`).
    suyas = Solicitud.objects.del_solicitante(usuario).para_busqueda()
    contexto["pagina"] = Paginator(suyas, SOLICITUDES_POR_PAGINA).get_page(
        request.GET.get("pagina")
    )
    contexto["con_reportes"] = pantallas.tiene_alguno(usuario, (PERSONALIZADOS,))
    return render(request, "solicitudes/inicio.html", contexto)


@login_required
@require_safe
def detalle(request: HttpRequest, pk: int) -> HttpResponse:
    """One request, if the person may see it; otherwise 404 (same as if it did not exist)."""
    solicitud = (
        Solicitud.objects.visibles_para(request.user)
        .select_related("tipo", "etapa_actual", "rol_responsable", "solicitante", "padre", "area")
        .con_hijos()
        .filter(pk=pk)
        .first()
    )
    if solicitud is None:
        raise Http404("La solicitud no existe o no está disponible.")
    contexto = {
        "solicitud": solicitud,
        "campos": selectors.campos_publicos(solicitud),
        "progreso": selectors.progreso(solicitud),
        "tarea": selectors.tarea_actual(solicitud),
        "eventos": selectors.historial(solicitud, 30),
        "comentarios": selectors.ultimos_comentarios(solicitud, 50),
        "hijos": list(solicitud.hijos.all()),
        # Only the budget documents the person could open (same rule as their screens).
        "presupuesto": pantallas.del_radicado(request.user, solicitud.numero_radicado),
    }
    return render(request, "solicitudes/detalle.html", contexto)
