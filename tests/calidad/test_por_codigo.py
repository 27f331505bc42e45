"""A quality document reached by its published code: /calidad/documentos/<code> answers 302 to
the document's page, for today's code and an old one; 404 for an unknown code or a draft's."""

from __future__ import annotations

import pytest

from apps.calidad import services
from apps.calidad.models import Documento
from tests.calidad.factories import DocumentoFactory, ProcesoFactory

pytestmark = pytest.mark.django_db


def test_the_published_code_redirects_to_the_canonical_page(client, pqrs):
    r = client.get("/calidad/documentos/ASC-PR-001")
    assert r.status_code == 302  # temporary: a code may later name another document
    assert r.headers["Location"] == f"/calidad/documentos/{pqrs.uid}"
    assert client.get(r.headers["Location"]).status_code == 200


def test_the_code_is_read_in_any_case(client, pqrs):
    r = client.get("/calidad/documentos/asc-pr-001")
    assert (r.status_code, r.headers["Location"]) == (302, pqrs.enlace)


def test_an_old_code_redirects_to_the_current_version(client, pqrs):
    r = client.get("/calidad/documentos/SC-P-01")
    assert (r.status_code, r.headers["Location"]) == (302, pqrs.enlace)


def test_an_old_code_kept_only_in_the_list_of_previous_codes_redirects_too(client):
    documento = DocumentoFactory(
        estado=Documento.Estado.PUBLICADO, codigo_publicado="GD-IN-7", codigos_anteriores=["ARC7"]
    )
    # Letters and digits only: it reaches the uid's route first, and falls back to the codes.
    r = client.get("/calidad/documentos/ARC7")
    assert (r.status_code, r.headers["Location"]) == (302, documento.enlace)
    assert client.get("/calidad/documentos/ARC").status_code == 404  # never a part of a code


def test_an_unknown_code_or_a_drafts_code_is_404(client, pqrs):
    assert client.get("/calidad/documentos/XYZ-PR-999").status_code == 404
    proceso = ProcesoFactory(sigla="GTH")
    services.crear_documento(
        titulo="Borrador", codigo_publicado="GTH-PR-001", tipo="procedimiento", proceso=proceso
    )
    r = client.get("/calidad/documentos/GTH-PR-001")
    assert r.status_code == 404
    assert "Página no encontrada" in r.content.decode()


def test_a_document_whose_versions_are_all_obsolete_is_404(client, pqrs):
    Documento.objects.filter(uid=pqrs.uid).update(estado=Documento.Estado.OBSOLETO)
    assert client.get("/calidad/documentos/ASC-PR-001").status_code == 404
    assert client.get("/calidad/documentos/SC-P-01").status_code == 404
