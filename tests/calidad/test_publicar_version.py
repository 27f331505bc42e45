from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.calidad import services
from apps.calidad.models import Documento
from tests.calidad.factories import DocumentoFactory, ProcesoFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def manual():
    proceso = ProcesoFactory(sigla="GCT", nombre="Gestión Contractual")
    borrador = services.crear_documento(
        titulo="Manual de contratación y supervisión",
        codigo_publicado="gj-ma-001",
        tipo="manual",
        proceso=proceso,
    )
    return services.publicar_version(
        borrador=borrador, fecha_publicacion=datetime.date(2017, 10, 2)
    )


def test_a_new_document_starts_as_a_draft_with_a_fresh_uid_and_upper_case_code():
    proceso = ProcesoFactory()
    a = services.crear_documento(
        titulo="Guía A", codigo_publicado=" gd-gu-001 ", tipo="guia", proceso=proceso
    )
    b = services.crear_documento(
        titulo="Guía B", codigo_publicado="GD-GU-002", tipo="guia", proceso=proceso
    )
    assert a.estado == "borrador" and a.fecha_publicacion is None
    assert a.codigo_publicado == "GD-GU-001"
    assert a.version == "1"
    assert a.uid != b.uid


def test_publishing_a_draft_sets_the_state_and_date(manual):
    assert manual.estado == "publicado"
    assert manual.fecha_publicacion == datetime.date(2017, 10, 2)
    assert manual.codigos_anteriores == []


def test_publication_date_defaults_to_today_in_local_time():
    borrador = DocumentoFactory(estado=Documento.Estado.BORRADOR)
    publicado = services.publicar_version(borrador=borrador)
    assert publicado.fecha_publicacion == timezone.localdate()
    borrador.refresh_from_db()
    assert borrador.estado == "publicado"


def test_publishing_a_new_version_makes_the_previous_one_obsolete(manual):
    v2 = services.crear_borrador(documento=manual)
    assert (v2.uid, v2.version, v2.estado) == (manual.uid, "2", "borrador")
    # The draft is not current yet: the published version stays.
    assert list(Documento.objects.vigentes()) == [manual]
    publicado = services.publicar_version(borrador=v2, fecha_publicacion=datetime.date(2021, 5, 4))
    manual.refresh_from_db()
    assert manual.estado == "obsoleto"
    assert publicado.estado == "publicado"
    assert list(Documento.objects.vigentes()) == [publicado]


def test_a_changed_code_moves_the_old_one_into_codigos_anteriores(manual):
    v2 = services.crear_borrador(documento=manual, codigo_publicado="GCT-MA-001")
    v2 = services.publicar_version(borrador=v2)
    assert v2.codigos_anteriores == ["GJ-MA-001"]
    v3 = services.publicar_version(borrador=services.crear_borrador(documento=v2))
    assert v3.codigo_publicado == "GCT-MA-001"
    assert v3.codigos_anteriores == ["GJ-MA-001"]
    v4 = services.publicar_version(
        borrador=services.crear_borrador(documento=v3, codigo_publicado="GCT-MA-010")
    )
    assert v4.codigos_anteriores == ["GJ-MA-001", "GCT-MA-001"]
    assert Documento.objects.vigentes().buscar("GJ-MA-001").get() == v4
    assert Documento.objects.vigentes().buscar("gct-ma-001").get() == v4


def test_returning_to_an_old_code_removes_it_from_the_old_codes(manual):
    v2 = services.publicar_version(
        borrador=services.crear_borrador(documento=manual, codigo_publicado="GCT-MA-001")
    )
    v3 = services.publicar_version(
        borrador=services.crear_borrador(documento=v2, codigo_publicado="GJ-MA-001")
    )
    assert v3.codigos_anteriores == ["GCT-MA-001"]


def test_only_a_draft_can_be_published(manual):
    with pytest.raises(services.OperacionNoPermitida):
        services.publicar_version(borrador=manual)
    manual.refresh_from_db()
    assert manual.estado == "publicado"


def test_a_code_used_by_another_current_document_refuses_publication_and_changes_nothing(manual):
    otro = DocumentoFactory(codigo_publicado="GD-GU-001")
    borrador = services.crear_borrador(documento=manual, codigo_publicado="GD-GU-001")
    with pytest.raises(services.OperacionNoPermitida):
        services.publicar_version(borrador=borrador)
    manual.refresh_from_db()
    borrador.refresh_from_db()
    assert (manual.estado, borrador.estado) == ("publicado", "borrador")
    assert list(Documento.objects.vigentes().order_by("id")) == [manual, otro]


def test_an_existing_version_number_cannot_be_drafted_twice(manual):
    services.crear_borrador(documento=manual, version="2")
    with pytest.raises(services.OperacionNoPermitida):
        services.crear_borrador(documento=manual, version="2")


def test_the_database_refuses_two_current_versions_of_one_document(manual):
    with pytest.raises(IntegrityError), transaction.atomic():
        Documento.objects.create(
            uid=manual.uid,
            codigo_publicado="OTRO-001",
            titulo="x",
            version="9",
            tipo="manual",
            proceso=manual.proceso,
            estado="publicado",
            fecha_publicacion=datetime.date(2025, 1, 1),
        )


def test_the_database_refuses_a_published_row_without_date():
    with pytest.raises(IntegrityError), transaction.atomic():
        DocumentoFactory(estado=Documento.Estado.PUBLICADO, fecha_publicacion=None)


def test_withdrawing_makes_the_document_obsolete_and_unsearchable(manual):
    services.retirar(documento=manual)
    manual.refresh_from_db()
    assert manual.estado == "obsoleto"
    assert not Documento.objects.vigentes().buscar("contratación").exists()
    with pytest.raises(services.OperacionNoPermitida):
        services.retirar(documento=manual)


@pytest.mark.parametrize("campo", ["titulo", "codigo_publicado", "version"])
def test_blank_texts_are_refused(campo):
    datos = {
        "titulo": "Guía",
        "codigo_publicado": "GD-GU-001",
        "version": "1",
        "tipo": "guia",
        "proceso": ProcesoFactory(),
    }
    datos[campo] = " \u200b "
    with pytest.raises(ValueError):
        services.crear_documento(**datos)
    assert not Documento.objects.exists()


def test_an_unknown_type_is_refused():
    with pytest.raises(ValueError):
        services.crear_documento(
            titulo="x", codigo_publicado="X-1", tipo="poema", proceso=ProcesoFactory()
        )
