"""CDP, RP and PAA line screens: read-only, for whoever the tools would show them to."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.presupuesto import pantallas

NO_DISPONIBLE = "El documento no existe o no está disponible."


def _pantalla(request: HttpRequest, datos: dict | None, plantilla: str) -> HttpResponse:
    """The screen of a document the person may see, else 404."""
    if datos is None:
        raise Http404(NO_DISPONIBLE)
    return render(request, plantilla, datos)


@login_required
@require_safe
def cdp(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/cdp/<id>: one CDP (the `enlace` of estado_cdp); 404 for anyone else."""
    return _pantalla(request, pantallas.cdp(request.user, pk), "presupuesto/cdp.html")


@login_required
@require_safe
def rp(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/rp/<id>: one RP (the `enlace` of estado_rp); 404 for anyone else."""
    return _pantalla(request, pantallas.rp(request.user, pk), "presupuesto/rp.html")


@login_required
@require_safe
def linea_paa(request: HttpRequest, pk: int) -> HttpResponse:
    """/presupuesto/paa/<id>: one PAA line (the `enlace` of resumen_ejecutivo's lines)."""
    return _pantalla(request, pantallas.linea(request.user, pk), "presupuesto/linea_paa.html")
