"""Reads of quality documents for the outside world: only current published versions."""

from __future__ import annotations

from datetime import date

from apps.calidad.models import Documento, DocumentoQuerySet, Proceso
from hub.busqueda.columnas import total_y_primeras

# buscar_documento's order, and the first of the list page's.
POR_CODIGO = ("codigo_publicado", "id")


def documentos_vigentes(
    *,
    texto: str = "",
    tipo: str | None = None,
    proceso: str | None = None,
    desde: date | None = None,
    hasta: date | None = None,
) -> DocumentoQuerySet:
    """What buscar_documento searches (published versions only), with the list page's
    optional filters: type, process (by abbreviation) and publication dates."""
    qs = Documento.objects.vigentes()
    if texto:
        qs = qs.buscar(texto)
    if tipo:
        qs = qs.filter(tipo=tipo)
    if proceso:
        qs = qs.filter(proceso__sigla=proceso)
    if desde is not None:
        qs = qs.filter(fecha_publicacion__gte=desde)
    if hasta is not None:
        qs = qs.filter(fecha_publicacion__lte=hasta)
    return qs


def procesos() -> list[tuple[str, str]]:
    """The processes a person may filter by, as (sigla, nombre), in one query."""
    return [(p.sigla, p.nombre) for p in Proceso.objects.order_by("nombre")]


def buscar_documentos(*, texto: str, limite: int = 10) -> dict:
    """The structuredContent of buscar_documento: texto, total and the first `limite` items (one
    query, hub.busqueda.columnas.total_y_primeras)."""
    total, primeros = total_y_primeras(
        documentos_vigentes(texto=texto).select_related("proceso").order_by(*POR_CODIGO), limite
    )
    return {"texto": texto, "total": total, "documentos": [d.resumen_publico() for d in primeros]}


def documento_vigente(uid: str) -> Documento | None:
    """The published version of the document `uid` (never a draft nor an obsolete version)."""
    return (
        Documento.objects.vigentes()
        .select_related("proceso")
        .filter(uid=(uid or "").strip().upper())
        .first()
    )


def documento_por_codigo(codigo: str) -> Documento | None:
    """The published version of the document that publishes `codigo` today, or published it
    before (an obsolete version's code, or one listed in `codigos_anteriores`); None if none.

    Only current versions are answered (`vigentes`): a draft's code leads nowhere.
    """
    codigo = (codigo or "").strip().upper()
    if not codigo:
        return None
    vigentes = Documento.objects.vigentes().select_related("proceso")
    actual = vigentes.filter(codigo_publicado=codigo).first()
    if actual is not None:
        return actual
    # An older version of a document under this code: the document's current version.
    uids = (
        Documento.objects.filter(codigo_publicado=codigo)
        .exclude(estado=Documento.Estado.BORRADOR)
        .values("uid")
    )
    actual = vigentes.filter(uid__in=uids).order_by("-id").first()
    if actual is not None:
        return actual
    # A code kept in the list of previous codes (the JSON text holds it quoted); the match is
    # confirmed on the list itself, so a code inside a longer one never counts.
    for candidato in vigentes.filter(codigos_anteriores__icontains=f'"{codigo}"').order_by("-id"):
        if codigo in (str(c).strip().upper() for c in candidato.codigos_anteriores or []):
            return candidato
    return None
