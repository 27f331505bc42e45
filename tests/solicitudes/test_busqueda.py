"""Search: accent- and case-insensitive, over number, summary and type name, always current."""

from __future__ import annotations

import pytest
from django.db import connection

from apps.solicitudes import services
from apps.solicitudes.demo_masivo import cargar_masivo
from apps.solicitudes.models import Solicitud
from hub.busqueda.texto import normalizar
from hub.operacion.demo import ContextoDemo
from tests.factories import GroupFactory
from tests.solicitudes.factories import radicar, tipo_con_etapas

pytestmark = pytest.mark.django_db


@pytest.fixture
def peticion(db):
    return tipo_con_etapas(GroupFactory(), nombre="Derecho de petición")


def test_search_ignores_accents_and_case(peticion):
    s = radicar(peticion, resumen="Petición sobre el PAGO de la cuenta de cobro")
    otra = radicar(peticion, resumen="Queja por la atención")
    assert list(Solicitud.objects.buscar("peticion pago")) == [s]
    assert set(Solicitud.objects.buscar("PETICIÓN")) == {s, otra}  # the type's name: both
    assert list(Solicitud.objects.buscar("atencion")) == [otra]
    assert list(Solicitud.objects.buscar("ATENCIÓN queja")) == [otra]


def test_search_finds_by_number_fragment_and_needs_every_word(peticion):
    s = radicar(peticion, resumen="Solicitud de copias del expediente")
    secuencia = s.numero_radicado.rsplit("-", 1)[1]
    assert list(Solicitud.objects.buscar(secuencia)) == [s]
    assert list(Solicitud.objects.buscar(s.numero_radicado.lower())) == [s]
    assert list(Solicitud.objects.buscar("copias inexistente")) == []


def test_search_column_follows_saves_of_the_summary(peticion):
    s = radicar(peticion, resumen="Solicitud de copias del expediente")
    s.resumen = "Solicitud de certificación de pagos"
    s.save(update_fields=["resumen"])
    s.refresh_from_db()
    assert s.busqueda == normalizar(f"{s.numero_radicado} {s.resumen} Derecho de petición")
    assert list(Solicitud.objects.buscar("certificacion")) == [s]
    assert list(Solicitud.objects.buscar("expediente")) == []


def test_renaming_a_type_reindexes_its_requests(peticion):
    s = radicar(peticion, resumen="Solicitud de copias del expediente")
    peticion.nombre = "Petición ciudadana"
    peticion.save()
    assert services.reindexar_busqueda(tipo=peticion) == 1
    assert list(Solicitud.objects.buscar("ciudadana")) == [s]


def test_the_bulk_path_fills_the_search_column(peticion, django_user_model):
    ctx = ContextoDemo(escala=1)
    creadas = cargar_masivo(ctx, objetivo=60)
    assert creadas == 60
    filas = list(Solicitud.objects.select_related("tipo"))
    assert len(filas) == 60
    for s in filas:
        assert s.busqueda == normalizar(s.texto_busqueda())
    muestra = filas[0]
    palabra = normalizar(muestra.resumen).split(" ")[-1]
    assert muestra in Solicitud.objects.buscar(palabra)


def test_the_trigram_index_exists_only_on_postgresql():
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'sol_sol_busqueda_trgm'"
            )
            [(definicion,)] = cursor.fetchall()
        assert "gin" in definicion.lower() and "gin_trgm_ops" in definicion
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'sol_sol_busqueda_trgm'"
            )
            assert cursor.fetchone() == (0,)
