"""/calidad/documentos/: the public list of current documents; the same as buscar_documento
(never a draft nor an obsolete version), with type, process, dates, paging and sortings."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.calidad.models import Documento
from tests.calidad.factories import DocumentoFactory, ProcesoFactory
from tests.factories import UserFactory
from tests.mcp_cliente import llamar, validador

pytestmark = pytest.mark.django_db

RUTA = "/calidad/documentos/"


@pytest.fixture
def documentos():
    talento = ProcesoFactory(sigla="GTH", nombre="Gestión del Talento Humano")
    compras = ProcesoFactory(sigla="GAF", nombre="Gestión Administrativa y Financiera")
    vacaciones = DocumentoFactory(
        codigo_publicado="GTH-PR-002",
        titulo="Procedimiento de vacaciones",
        proceso=talento,
        fecha_publicacion=datetime.date(2026, 3, 1),
    )
    induccion = DocumentoFactory(
        codigo_publicado="GTH-GU-001",
        titulo="Guía de inducción",
        tipo=Documento.Tipo.GUIA,
        proceso=talento,
        fecha_publicacion=datetime.date(2026, 1, 10),
    )
    compra = DocumentoFactory(
        codigo_publicado="GAF-PR-001",
        titulo="Procedimiento de compras y vacaciones colectivas",
        proceso=compras,
        fecha_publicacion=datetime.date(2026, 2, 5),
    )
    borrador = DocumentoFactory(
        codigo_publicado="GTH-PR-009",
        titulo="Borrador de vacaciones",
        proceso=talento,
        estado=Documento.Estado.BORRADOR,
        fecha_publicacion=None,
    )
    obsoleto = DocumentoFactory(
        codigo_publicado="GTH-PR-001",
        titulo="Vacaciones (versión anterior)",
        proceso=talento,
        estado=Documento.Estado.OBSOLETO,
    )
    return {
        "vacaciones": vacaciones,
        "induccion": induccion,
        "compra": compra,
        "borrador": borrador,
        "obsoleto": obsoleto,
    }


def _ids(respuesta) -> list[int]:
    return [d.pk for d in respuesta.context["pagina"].filas]


def _errores(respuesta) -> dict[str, list[str]]:
    return {c.nombre: c.errores for c in respuesta.context["campos"] if c.errores}


def test_anyone_sees_the_current_documents_by_code_never_drafts_nor_obsolete(client, documentos):
    d = documentos
    r = client.get(RUTA)
    assert r.status_code == 200
    assert _ids(r) == [d["compra"].pk, d["induccion"].pk, d["vacaciones"].pk]
    html = r.content.decode()
    assert "Borrador de vacaciones" not in html and "versión anterior" not in html
    assert f'href="{d["vacaciones"].enlace}"' in html


def test_a_signed_in_person_sees_exactly_the_same(client, documentos):
    anonimo = _ids(client.get(RUTA, {"q": "vacaciones"}))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert _ids(client.get(RUTA, {"q": "vacaciones"})) == anonimo


def test_q_type_process_and_dates(client, documentos):
    d = documentos
    assert _ids(client.get(RUTA, {"q": "VACACIONES"})) == [d["compra"].pk, d["vacaciones"].pk]
    assert _ids(client.get(RUTA, {"q": "induccion"})) == [d["induccion"].pk]
    assert _ids(client.get(RUTA, {"tipo": "guia"})) == [d["induccion"].pk]
    assert _ids(client.get(RUTA, {"proceso": "GAF"})) == [d["compra"].pk]
    r = client.get(RUTA, {"desde": "2026-02-01", "hasta": "2026-03-01"})
    assert _ids(r) == [d["compra"].pk, d["vacaciones"].pk]
    (proceso,) = [c for c in r.context["campos"] if c.nombre == "proceso"]
    assert proceso.opciones == [
        ("GAF", "Gestión Administrativa y Financiera"),
        ("GTH", "Gestión del Talento Humano"),
    ]


def test_both_sortings_in_both_directions(client, documentos):
    d = documentos
    assert _ids(client.get(RUTA, {"orden": "-codigo"})) == [
        d["vacaciones"].pk,
        d["induccion"].pk,
        d["compra"].pk,
    ]
    assert _ids(client.get(RUTA, {"orden": "recientes"})) == [
        d["vacaciones"].pk,
        d["compra"].pk,
        d["induccion"].pk,
    ]
    assert _ids(client.get(RUTA, {"orden": "antiguas"})) == [
        d["induccion"].pk,
        d["compra"].pk,
        d["vacaciones"].pk,
    ]


def test_paging_and_a_page_out_of_range(client, documentos):
    DocumentoFactory.create_batch(21, titulo="Formato de lote")
    r = client.get(RUTA, {"q": "lote"})
    pagina = r.context["pagina"]
    assert (pagina.total, pagina.paginas, len(pagina.filas)) == (21, 2, 20)
    assert pagina.siguiente == "?q=lote&orden=codigo&pagina=2"
    lejos = client.get(RUTA, {"q": "lote", "pagina": "1000"})
    assert lejos.status_code == 200 and lejos.context["pagina"].numero == 2


def test_bad_input_is_a_form_error_never_a_500(client, documentos):
    r = client.get(RUTA, {"desde": "01/02/2026"})
    assert r.status_code == 400 and list(_errores(r)) == ["desde"]
    r = client.get(RUTA, {"desde": "2026-03-02", "hasta": "2026-03-01"})
    assert r.status_code == 400 and _errores(r) == {
        "hasta": ["Debe ser igual o posterior a desde."]
    }
    r = client.get(RUTA, {"tipo": "novela"})
    assert r.status_code == 400 and list(_errores(r)) == ["tipo"]
    r = client.get(RUTA, {"q": "x"})
    assert r.status_code == 400 and list(_errores(r)) == ["q"]
    for malo in ({"q": "vaca\x00"}, {"proceso": "\x00"}, {"hasta": "2026-03-01\x00"}):
        r = client.get(RUTA, malo)
        assert r.status_code == 400 and list(_errores(r)) == [next(iter(malo))]
    r = client.get(RUTA, {"orden": "tamaño"})
    assert r.status_code == 200 and len(r.context["errores"]) == 1


@pytest.mark.parametrize("texto", ["vacaciones", "gth", "procedimiento"])
def test_the_page_and_buscar_documento_give_the_same_ids(client, clave, documentos, texto):
    datos = validador("buscar_documento")(
        llamar(client, "buscar_documento", {"texto": texto, "limite": 20}, **clave)
    )
    herramienta = [i["id"] for i in datos["documentos"]]
    r = client.get(RUTA, {"q": texto})
    assert _ids(r) == herramienta and herramienta
    assert r.context["pagina"].total == datos["total"]


def test_the_number_of_queries_does_not_grow_with_the_rows(
    client, documentos, django_assert_num_queries
):
    def contar() -> int:
        client.get(RUTA, {"q": "lote"})
        with CaptureQueriesContext(connection) as capturadas:
            assert client.get(RUTA, {"q": "lote", "orden": "recientes"}).status_code == 200
        return len(capturadas)

    DocumentoFactory(titulo="Formato de lote")
    pocas = contar()
    DocumentoFactory.create_batch(30, titulo="Formato de lote")
    with django_assert_num_queries(pocas):
        assert client.get(RUTA, {"q": "lote", "orden": "recientes"}).status_code == 200
