from __future__ import annotations

import datetime

import pytest

from apps.calidad.models import Documento
from apps.calidad.selectors import buscar_documentos
from tests.busqueda import vocabulario
from tests.calidad.factories import DocumentoFactory, ProcesoFactory

pytestmark = pytest.mark.django_db


def _codigos(qs) -> list[str]:
    return sorted(qs.values_list("codigo_publicado", flat=True))


def test_only_the_current_published_version_is_vigente(pqrs):
    familia = Documento.objects.filter(uid=pqrs.uid)
    assert familia.count() == 4
    assert dict(familia.values_list("version", "estado")) == {
        "1": "obsoleto",
        "2": "obsoleto",
        "3": "publicado",
        "4": "borrador",
    }
    assert list(Documento.objects.vigentes()) == [pqrs]


@pytest.mark.parametrize(
    "texto",
    [
        "gestión de peticiones",
        "GESTION DE PETICIONES",
        "quejas reclamos",
        "asc-pr-001",
        "ASC PR 001",
        "sc-p-01",
        "derecho de peticion",
        "pqrsd",
        "servicio al ciudadano",
        "  Peticiones\tQUEJAS  ",
    ],
)
def test_search_finds_the_current_version_by_title_code_old_code_topic_and_process(pqrs, texto):
    assert list(Documento.objects.vigentes().buscar(texto)) == [pqrs]


def test_drafts_and_obsolete_versions_are_never_found_from_outside():
    DocumentoFactory(titulo="Guía de lenguaje claro", estado=Documento.Estado.BORRADOR)
    DocumentoFactory(titulo="Guía de lenguaje claro antigua", estado=Documento.Estado.OBSOLETO)
    vigente = DocumentoFactory(titulo="Guía de lenguaje claro vigente")
    assert list(Documento.objects.vigentes().buscar("lenguaje claro")) == [vigente]
    assert buscar_documentos(texto="lenguaje claro")["total"] == 1
    # The words of the draft alone find nothing published.
    DocumentoFactory(titulo="Protocolo secreto", estado=Documento.Estado.BORRADOR)
    assert buscar_documentos(texto="protocolo secreto") == {
        "texto": "protocolo secreto",
        "total": 0,
        "documentos": [],
    }


def test_the_search_of_a_draft_text_finds_only_the_published_version(pqrs):
    resultado = buscar_documentos(texto="borrador en revisión")
    assert resultado["total"] == 0
    resultado = buscar_documentos(texto="PQRSD")
    assert [d["version"] for d in resultado["documentos"]] == ["3"]


def test_every_word_must_match():
    DocumentoFactory(titulo="Manual de contratación")
    DocumentoFactory(titulo="Manual de supervisión")
    assert _codigos(Documento.objects.vigentes().buscar("manual supervision")) == [
        Documento.objects.get(titulo="Manual de supervisión").codigo_publicado
    ]
    assert Documento.objects.vigentes().buscar("manual").count() == 2


def test_buscar_documentos_returns_the_interface_item_with_exact_types(pqrs):
    resultado = buscar_documentos(texto="peticiones", limite=10)
    assert set(resultado) == {"texto", "total", "documentos"}
    assert resultado["texto"] == "peticiones"
    assert resultado["total"] == 1
    (item,) = resultado["documentos"]
    assert item == {
        "id": pqrs.pk,
        "uid": pqrs.uid,
        "codigo_publicado": "ASC-PR-001",
        "codigos_anteriores": ["SC-P-01"],
        "titulo": "Procedimiento de gestión de peticiones, quejas y reclamos",
        "version": "3",
        "tipo": "procedimiento",
        "proceso": "Atención y Servicio al Ciudadano",
        "estado": "publicado",
        "fecha_publicacion": "2024-02-12",
        "enlace": f"/calidad/documentos/{pqrs.uid}",
    }
    assert isinstance(item["id"], int)


def test_buscar_documentos_honours_the_limit_and_reports_the_total():
    for _ in range(7):
        DocumentoFactory(titulo="Formato de asistencia")
    resultado = buscar_documentos(texto="asistencia", limite=3)
    assert resultado["total"] == 7
    assert len(resultado["documentos"]) == 3
    codigos = [d["codigo_publicado"] for d in resultado["documentos"]]
    assert codigos == sorted(codigos)


def test_buscar_documentos_costs_one_query_whatever_the_number_of_documents(
    django_assert_num_queries,
):
    for _ in range(3):
        DocumentoFactory(titulo="Instructivo de archivo")
    with django_assert_num_queries(1 + vocabulario()):
        buscar_documentos(texto="archivo")
    for _ in range(12):
        DocumentoFactory(titulo="Instructivo de archivo", proceso=ProcesoFactory())
    with django_assert_num_queries(1 + vocabulario()):
        assert len(buscar_documentos(texto="archivo", limite=50)["documentos"]) == 15


def test_the_search_column_is_updated_on_save():
    documento = DocumentoFactory(titulo="Guía de inventarios", temas="bienes muebles")
    assert Documento.objects.vigentes().buscar("muebles").count() == 1
    documento.temas = "activos fijos"
    documento.save(update_fields=["temas"])
    assert Documento.objects.vigentes().buscar("muebles").count() == 0
    assert Documento.objects.vigentes().buscar("activos fijos").get() == documento
    documento.refresh_from_db()
    assert documento.busqueda.startswith(documento.codigo_publicado.lower())
    assert "guia de inventarios" in documento.busqueda


def test_the_bulk_path_fills_the_search_column():
    proceso = ProcesoFactory(nombre="Gestión Documental")
    Documento.objects.crear_en_bloque(
        [
            Documento(
                codigo_publicado=f"GD-FO-{n:03d}",
                titulo=f"Formato de préstamo de expedientes {n}",
                tipo=Documento.Tipo.FORMATO,
                proceso=proceso,
                estado=Documento.Estado.PUBLICADO,
                fecha_publicacion=datetime.date(2025, 1, 1),
            )
            for n in range(5)
        ]
    )
    assert Documento.objects.vigentes().buscar("PRESTAMO expedientes").count() == 5
    assert Documento.objects.vigentes().buscar("gestion documental").count() == 5
    assert not Documento.objects.filter(busqueda="").exists()


def test_renaming_a_process_updates_the_search_column_of_its_documents():
    proceso = ProcesoFactory(nombre="Gestión Humana")
    DocumentoFactory(proceso=proceso)
    DocumentoFactory(proceso=proceso, estado=Documento.Estado.BORRADOR)
    proceso.nombre = "Gestión del Talento Humano"
    proceso.save()
    assert Documento.objects.buscar("talento humano").count() == 2
    assert Documento.objects.buscar("gestion humana").count() == 0


def test_reindexar_repairs_rows_written_without_save():
    documento = DocumentoFactory(titulo="Plan de emergencias")
    Documento.objects.filter(pk=documento.pk).update(titulo="Plan de evacuación", busqueda="")
    assert Documento.objects.buscar("evacuacion").count() == 0
    assert Documento.objects.all().reindexar(lote=1) == 1
    assert Documento.objects.vigentes().buscar("evacuación").get() == documento
