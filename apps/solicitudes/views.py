"""The request screen (`Solicitud.enlace`): what a participant sees, read-only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from apps.solicitudes import selectors
from apps.solicitudes.models import Solicitud


@login_required
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
    }
    return render(request, "solicitudes/detalle.html", contexto)
