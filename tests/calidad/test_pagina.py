"""The page behind a quality document's link: its current published version, for anyone (as
buscar_documento is public); a draft or an obsolete version never shows."""

from __future__ import annotations

import html

import pytest

from apps.calidad.models import Documento
from tests.calidad.factories import DocumentoFactory

pytestmark = pytest.mark.django_db


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def test_the_link_shows_the_current_version_to_anyone(client, pqrs):
    assert pqrs.enlace == f"/calidad/documentos/{pqrs.uid}"
    r = client.get(pqrs.enlace)
    assert r.status_code == 200
    texto = _texto(r)
    for dato in (
        "Procedimiento de gestión de peticiones, quejas y reclamos",
        "ASC-PR-001",
        "SC-P-01",  # previous code
        "versión 3",
        "12/02/2024",  # the staff pages' one date style
        "Procedimiento",
        "Atención y Servicio al Ciudadano",
        "Vigente",
    ):
        assert dato in texto, dato
    assert "borrador en revisión" not in texto


def test_the_uid_is_read_in_any_case(client, pqrs):
    assert client.get(f"/calidad/documentos/{pqrs.uid.lower()}").status_code == 200


def test_a_document_with_only_drafts_or_unknown_is_404(client):
    borrador = DocumentoFactory(estado=Documento.Estado.BORRADOR)
    assert client.get(borrador.enlace).status_code == 404
    assert client.get("/calidad/documentos/01ARZ3NDEKTSV4RRFFQ69G5FAV").status_code == 404
    r = client.get("/calidad/documentos/no-es-un-uid")
    assert r.status_code == 404
    assert "Página no encontrada" in _texto(r)
