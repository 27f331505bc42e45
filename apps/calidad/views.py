"""The page of a quality document (`Documento.enlace`): its current published version."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.calidad.selectors import documento_por_codigo, documento_vigente

NO_EXISTE = "El documento no existe o no tiene una versión vigente."


@require_safe
def documento(request: HttpRequest, uid: str) -> HttpResponse:
    """/calidad/documentos/<uid>: public, like buscar_documento; drafts are never shown."""
    vigente = documento_vigente(uid)
    if vigente is None:
        return por_codigo(request, uid)  # a code of letters and digits only ("MANUAL01")
    return render(request, "calidad/documento.html", {"documento": vigente})


@require_safe
def por_codigo(request: HttpRequest, codigo: str) -> HttpResponse:
    """/calidad/documentos/<code>: 302 to the document's page (`enlace`), for its published code
    or an old one. Temporary: a code may later name another document."""
    vigente = documento_por_codigo(codigo)
    if vigente is None:
        raise Http404(NO_EXISTE)
    return HttpResponseRedirect(vigente.enlace)
