"""The page where a person approves or rejects a write of the assistant (issue 40).

Only the token's person sees it (anyone else gets 404, like an address that does not exist);
a GET only shows, each decision is a POST with CSRF: link previewers and mail scanners open
links. Answers are never cached.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from apps.mcp import aprobaciones
from apps.mcp.models import Aprobacion

# What each field of a preview is called on the page; ids, links and codes are not shown.
ETIQUETAS = {
    "numero_radicado": "Solicitud",
    "tipo": "Tipo",
    "estado": "Estado de la solicitud",
    "autor": "A nombre de",
    "solicitante": "A nombre de",
    "asunto": "Asunto",
    "severidad_visible": "Severidad",
    "modulo": "Módulo",
    "descripcion": "Descripción",
    "comentario": "Comentario",
}


def campos(previa: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) of the preview's fields a person reads, in the preview's order."""
    return [
        (ETIQUETAS[nombre], str(valor))
        for nombre, valor in previa.items()
        if nombre in ETIQUETAS and valor not in (None, "")
    ]


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def aprobacion(request: HttpRequest, clave: str) -> HttpResponse:
    """GET shows what will be written; POST `decision=aprobar|rechazar` decides, once."""
    fila = Aprobacion.objects.de(request.user).filter(clave=clave).first()
    if fila is None:
        raise Http404
    problema = ""
    if request.method == "POST":
        decision = request.POST.get("decision")
        if decision not in ("aprobar", "rechazar"):
            problema = "Elija «Aprobar» o «Rechazar»."
        else:
            try:
                aprobaciones.decidir(
                    usuario=request.user, clave=clave, aprobar=decision == "aprobar"
                )
            except Aprobacion.DoesNotExist:
                raise Http404 from None
            except aprobaciones.DecisionImposible as exc:
                problema = exc.mensaje
            else:
                return redirect(fila.enlace)
        fila.refresh_from_db()
    contexto = {
        "aprobacion": fila,
        "campos": campos(fila.previa),
        "enlace_destino": fila.previa.get("enlace") or "",
        "vencida": fila.vencida(),
        "escrita": aprobaciones.escrita(fila),
        "problema": problema,
    }
    return render(request, "mcp/aprobacion.html", contexto, status=409 if problema else 200)
