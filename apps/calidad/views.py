"""The page of a quality document (`Documento.enlace`): its current published version."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.calidad.selectors import documento_vigente


@require_safe
def documento(request: HttpRequest, uid: str) -> HttpResponse:
    """/calidad/documentos/<uid>: public, like buscar_documento; drafts are never shown."""
    vigente = documento_vigente(uid)
    if vigente is None:
        raise Http404("El documento no existe o no tiene una versión vigente.")
    return render(request, "calidad/documento.html", {"documento": vigente})
