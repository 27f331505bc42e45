"""CDP, RP and PAA line screens: read-only, for whoever the tools would show them to."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.presupuesto import pantallas
from apps.solicitudes.models import Solicitud

NO_DISPONIBLE = "El documento no existe o no está disponible."


def _solicitud_de(request: HttpRequest, numero_radicado: str | None) -> Solicitud | None:
    """The originating request, only if the person may open its screen."""
    if not numero_radicado:
        return None
    return Solicitud.objects.visibles_para(request.user).por_numero(numero_radicado).first()


@login_required
@require_safe
def cdp(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/cdp/<id>: one CDP (the `enlace` of estado_cdp); 404 for anyone else."""
    datos = pantallas.cdp(request.user, pk)
    if datos is None:
        raise Http404(NO_DISPONIBLE)
    datos["solicitud"] = _solicitud_de(request, datos["cdp"].numero_radicado)
    return render(request, "presupuesto/cdp.html", datos)


@login_required
@require_safe
def rp(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/rp/<id>: one RP (the `enlace` of estado_rp); 404 for anyone else."""
    datos = pantallas.rp(request.user, pk)
    if datos is None:
        raise Http404(NO_DISPONIBLE)
    datos["solicitud"] = _solicitud_de(request, datos["rp"].numero_radicado)
    return render(request, "presupuesto/rp.html", datos)


@login_required
@require_safe
def linea_paa(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/paa/<id>: one PAA line (the `enlace` of resumen_ejecutivo's lines)."""
    datos = pantallas.linea(request.user, pk)
    if datos is None:
        raise Http404(NO_DISPONIBLE)
    return render(request, "presupuesto/linea_paa.html", datos)
