"""Reads of quality documents for the outside world: only current published versions."""

from __future__ import annotations

from apps.calidad.models import Documento


def buscar_documentos(*, texto: str, limite: int = 10) -> dict:
    """The structuredContent of buscar_documento: texto, total and the first `limite` items."""
    encontrados = Documento.objects.vigentes().buscar(texto)
    total = encontrados.count()
    documentos = [
        d.resumen_publico()
        for d in encontrados.select_related("proceso").order_by("codigo_publicado", "id")[:limite]
    ]
    return {"texto": texto, "total": total, "documentos": documentos}


def documento_vigente(uid: str) -> Documento | None:
    """The published version of the document `uid` (never a draft nor an obsolete version)."""
    return (
        Documento.objects.vigentes()
        .select_related("proceso")
        .filter(uid=(uid or "").strip().upper())
        .first()
    )
