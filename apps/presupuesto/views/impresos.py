"""Print views and PDFs of the signed documents, for whoever may see them on their screens."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from apps.presupuesto import impresos
from apps.presupuesto.views.documentos import NO_DISPONIBLE

PLANTILLA = "presupuesto/impreso.html"
# A signature can be annulled at any moment: no copy of the page or the PDF is kept.
SIN_CACHE = "private, no-store"


def _impreso(request: HttpRequest, datos: dict | None, formato: str) -> HttpResponse:
    """The print view (formato "html") or the PDF of a document the person may see, else 404."""
    if datos is None:
        raise Http404(NO_DISPONIBLE)
    papel = impresos.papel(request.GET.get("papel"))
    contexto = {**datos, "papel": papel, "papeles": impresos.PAPELES, "logo": impresos.logo()}
    if formato == "pdf":
        html = render_to_string(PLANTILLA, {**contexto, "para_pdf": True}, request=request)
        respuesta = HttpResponse(impresos.pdf(html), content_type="application/pdf")
        nombre = f"{datos['archivo']}-{papel['clave']}.pdf"
        respuesta["Content-Disposition"] = f'inline; filename="{nombre}"'
    else:
        respuesta = render(request, PLANTILLA, contexto)
    respuesta["Cache-Control"] = SIN_CACHE
    return respuesta


@login_required
@require_safe
def cdp(request: HttpRequest, pk: int, formato: str, numero: int | None = None) -> HttpResponse:
    """/presupuesto/cdp/<id>/{imprimir,pdf} and its movements' .../movimientos/<n>/..."""
    return _impreso(request, impresos.cdp(request.user, pk, numero), formato)


@login_required
@require_safe
def rp(request: HttpRequest, pk: int, formato: str, numero: int | None = None) -> HttpResponse:
    """/presupuesto/rp/<id>/{imprimir,pdf} and its movements' .../movimientos/<n>/..."""
    return _impreso(request, impresos.rp(request.user, pk, numero), formato)


@login_required
@require_safe
def linea_paa(request: HttpRequest, pk: int, formato: str) -> HttpResponse:
    """/presupuesto/paa/<id>/{imprimir,pdf}."""
    return _impreso(request, impresos.linea(request.user, pk), formato)
