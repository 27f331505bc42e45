"""buscar_documento: public search over current published quality documents only."""

from __future__ import annotations

import datetime
import json

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.calidad.models import Documento
from hub.herramientas.registro import registro
from tests.busqueda import CAMPOS_DOCUMENTO
from tests.calidad.factories import DocumentoFactory, ProcesoFactory
from tests.mcp_cliente import ajustar, cumple_esquema, llamar

pytestmark = pytest.mark.django_db


@pytest.fixture
def documentos():
    proceso = ProcesoFactory(sigla="GTH", nombre="Gestión del Talento Humano")
    vigente = DocumentoFactory(
        codigo_publicado="GTH-PR-004",
        codigos_anteriores=["TH-P-04"],
        titulo="Procedimiento de vacaciones\u200b y permisos",
        version="3",
        proceso=proceso,
        fecha_publicacion=datetime.date(2025, 3, 14),
    )
    borrador = DocumentoFactory(
        codigo_publicado="GTH-PR-099",
        titulo="Procedimiento de vacaciones (borrador)",
        estado=Documento.Estado.BORRADOR,
        proceso=proceso,
    )
    obsoleto = DocumentoFactory(
        codigo_publicado="GTH-PR-003",
        titulo="Procedimiento de vacaciones antiguo",
        estado=Documento.Estado.OBSOLETO,
        proceso=proceso,
    )
    return {"vigente": vigente, "borrador": borrador, "obsoleto": obsoleto}


def _buscar(client, cabeceras, **argumentos):
    return llamar(client, "buscar_documento", argumentos, **cabeceras)


def test_the_api_key_alone_finds_current_documents_only(client, clave, documentos):
    r = _buscar(client, clave, texto="vacaciones")
    datos = r.estructura
    assert r.resultado["isError"] is False
    assert datos["texto"] == "vacaciones"
    assert datos["total"] == 1
    [item] = datos["documentos"]
    assert set(item) == CAMPOS_DOCUMENTO
    vigente = documentos["vigente"]
    assert item == {
        "id": vigente.pk,
        "uid": vigente.uid,
        "codigo_publicado": "GTH-PR-004",
        "codigos_anteriores": ["TH-P-04"],
        "titulo": "Procedimiento de vacaciones y permisos",
        "version": "3",
        "tipo": "procedimiento",
        "proceso": "Gestión del Talento Humano",
        "estado": "publicado",
        "fecha_publicacion": "2025-03-14",
        "enlace": f"/calidad/documentos/{vigente.uid}",
        "url": f"{settings.HUB_URL_PUBLICA}/calidad/documentos/{vigente.uid}",
    }
    assert json.loads(r.resultado["content"][1]["text"]) == datos
    assert "GTH-PR-004" in r.resultado["content"][0]["text"]
    cumple_esquema(datos, registro.obtener("buscar_documento").esquema_salida)


@pytest.mark.parametrize("texto", ["VACACIÓNES", "th-p-04", "talento humano", "gth-pr-004"])
def test_search_ignores_accents_and_case_and_covers_codes_and_process(
    client, clave, documentos, texto
):
    r = _buscar(client, clave, texto=texto)
    assert [d["codigo_publicado"] for d in r.estructura["documentos"]] == ["GTH-PR-004"]


def test_a_person_gets_the_same_public_search(client, como_limitado, documentos):
    assert _buscar(client, como_limitado, texto="vacaciones").estructura["total"] == 1


def test_nothing_found_is_not_an_error(client, clave, documentos):
    r = _buscar(client, clave, texto="inexistente")
    assert r.resultado["isError"] is False
    assert r.estructura == {"texto": "inexistente", "total": 0, "documentos": []}


def test_the_limit_caps_the_list_but_not_the_total(client, clave):
    proceso = ProcesoFactory(sigla="CAL", nombre="Gestión de la calidad")
    for i in range(7):
        DocumentoFactory(
            codigo_publicado=f"CAL-FT-{i:03d}", titulo=f"Formato de control {i}", proceso=proceso
        )
    r = _buscar(client, clave, texto="control", limite=3)
    assert r.estructura["total"] == 7
    assert len(r.estructura["documentos"]) == 3
    assert len(_buscar(client, clave, texto="control").estructura["documentos"]) == 7


@pytest.mark.parametrize(
    "argumentos",
    [
        {"texto": "a"},
        {"texto": "a" * 121},
        {"texto": "ok", "limite": 0},
        {"texto": "ok", "limite": 51},
        {},
        {"texto": "ok", "pagina": 2},
    ],
)
def test_invalid_arguments_are_datos_invalidos(client, clave, argumentos):
    assert _buscar(client, clave, **argumentos).estructura["codigo"] == "DATOS_INVALIDOS"


@pytest.mark.parametrize("texto", ["\u200b\u200b", "--", "¿?¡!", "\u202e..\u202c"])
def test_a_text_with_nothing_to_search_is_datos_invalidos_not_every_document(
    client, clave, documentos, texto
):
    r = _buscar(client, clave, texto=texto)
    assert r.estructura["codigo"] == "DATOS_INVALIDOS"
    assert r.estructura["campos"] == {"texto": ["Escriba al menos una letra o un número."]}


def test_the_text_is_searched_and_echoed_without_invisible_characters(client, clave, documentos):
    datos = _buscar(client, clave, texto=" vaca\u200bciones\u202e ").estructura
    assert datos["texto"] == "vacaciones"
    assert datos["total"] == 1


def test_the_search_costs_a_fixed_number_of_queries(
    client, clave, documentos, django_assert_num_queries
):
    _buscar(client, clave, texto="procedimiento")
    with CaptureQueriesContext(connection) as antes:
        _buscar(client, clave, texto="procedimiento")
    for i in range(10):
        DocumentoFactory(
            codigo_publicado=f"OTRO-PR-{i}",
            titulo=f"Procedimiento {i}",
            proceso=ProcesoFactory(sigla=f"P{i}x"),
        )
    with django_assert_num_queries(len(antes.captured_queries)):
        r = _buscar(client, clave, texto="procedimiento")
    assert r.estructura["total"] == 11


def test_the_administrator_can_close_it_to_integrations_without_person(client, clave, documentos):
    ajustar(herramientas_publicas=["estado_solicitud"])
    assert _buscar(client, clave, texto="vacaciones").estructura["codigo"] == "SIN_IDENTIDAD"
