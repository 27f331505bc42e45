"""The word index of the search columns: on PostgreSQL the same answers as LIKE, and fast paths
that never change an answer (hub/busqueda/columnas.py)."""

from __future__ import annotations

import hashlib

import pytest
from django.apps import apps
from django.db import connection

from apps.solicitudes.models import Solicitud
from hub.busqueda import columnas as busqueda
from hub.busqueda.columnas import ConBusqueda, palabras_de
from tests.busqueda import vocabulario
from tests.factories import GroupFactory
from tests.solicitudes.factories import radicar, tipo_con_etapas

pytestmark = pytest.mark.django_db

# A word longer than a vocabulary piece, in several scripts: ASCII, Cyrillic (2 bytes a letter)
# and a character whose compatibility form is four katakana (12 bytes once normalized).
LARGA = "".join(f"{i:03d}abc" for i in range(70))  # 420 characters, no space
CIRILICA = "жзийклмнопрстуфхцчшщ" * 24  # 480 characters
KATAKANA = "\u3300" * 400  # NFKD: アパート, accent stripped: アハート (1,600 characters)
# 6,400 letters without a digit or a space that do not compress: whole, no index entry could
# hold them.
HEX = "".join(hashlib.md5(str(i).encode()).hexdigest() for i in range(200)).translate(
    str.maketrans("0123456789", "ghijklmnop")
)

RESUMENES = [
    "Viáticos comisión a Cartagena para la auditoría regional",
    "Legalización de viáticos del viaje a Cartagena",
    "Gastos de desplazamiento a Cali por el comité técnico",
    "Reclamo por cobro del 100% de la cuenta",
    "Reclamo por cobro del 1000 de la cuenta",
    "Archivo nombre_de_archivo.pdf y ruta C:\\datos\\informe",
    "Cartagenero pide certificación",
    f"Texto pegado {LARGA} al final",
    f"Ruso {CIRILICA}",
    f"Japonés {KATAKANA}",
]

BUSQUEDAS = [
    "cartagena",
    "CARTAGENA viaticos",
    "tagen",
    "viatico cartagena",
    "cali",
    "100%",
    "100",
    "1000",
    "_de_",
    "nombre_de",
    "c:\\datos",
    "\\",
    "%",
    "_",
    "certificacion cartagenero",
    "inexistente",
    "cartagena inexistente",
    LARGA[200:325],  # exactly SOLAPE characters from the middle of the long word
    LARGA[100:400],  # longer than SOLAPE: LIKE answers
    LARGA[-5:],
    CIRILICA[240:300],
    "アハート" * 40,
    "アパート",  # the query is normalized like the column
    "a",
    "sol",  # inside every filing number (SOL-2026-000001)
    "sol-",
    "-",
    "abc",  # between the digits of the long word
    "069abc",  # with digits: LIKE answers
    "2026 viaticos",
    HEX[3000:3125],
    HEX[3000:3300],
    HEX[-125:],
]


@pytest.fixture
def solicitudes(db):
    tipo = tipo_con_etapas(GroupFactory(), nombre="Trámite")
    filas = []
    for resumen in RESUMENES:
        # Filed through the service, then the summary saved as the admin or a load may write it.
        s = radicar(tipo, resumen="Solicitud de prueba")
        s.resumen = resumen
        s.save(update_fields=["resumen"])
        filas.append(s)
    # A column written by a bulk update, with a word longer than any index entry may be.
    Solicitud.objects.filter(pk=filas[0].pk).update(busqueda=f"{filas[0].busqueda} {HEX}")
    return filas


def _esperadas(filas: list[Solicitud], texto: str) -> set[int]:
    """The rule itself, in Python: every word of the query inside the normalized column."""
    palabras = palabras_de(texto)
    return {s.pk for s in filas if all(p in s.busqueda for p in palabras)}


def _encontradas(texto: str) -> set[int]:
    return set(Solicitud.objects.buscar(texto).values_list("pk", flat=True))


@pytest.mark.parametrize("texto", BUSQUEDAS)
def test_every_search_finds_exactly_the_rows_holding_every_word(solicitudes, texto):
    filas = list(Solicitud.objects.all())
    esperadas = _esperadas(filas, texto)
    assert _encontradas(texto) == esperadas
    assert Solicitud.objects.buscar(texto).count() == len(esperadas)


def test_the_rows_of_the_exactness_check_are_not_trivial(solicitudes):
    filas = list(Solicitud.objects.all())
    assert len(_esperadas(filas, "cartagena")) == 2
    assert len(_esperadas(filas, "cartagen")) == 3  # and the "cartagenero"
    assert len(_esperadas(filas, "cobro 100")) == 2 and len(_esperadas(filas, "100%")) == 1
    assert len(_esperadas(filas, LARGA[100:400])) == 1
    assert len(_esperadas(filas, "アハート" * 40)) == 1
    assert len(_esperadas(filas, HEX[3000:3300])) == 1


def test_a_word_in_too_many_vocabulary_words_falls_back_to_the_same_answer(
    solicitudes, monkeypatch
):
    monkeypatch.setattr(busqueda, "MAX_EXPANSIONES", 1)
    filas = list(Solicitud.objects.all())
    assert _encontradas("cartagen") == _esperadas(filas, "cartagen")
    assert len(_encontradas("cartagen")) == 3


def test_words_written_after_the_first_search_are_found_at_once(solicitudes):
    assert _encontradas("buenaventura") == set()
    s = solicitudes[0]
    s.resumen = "Viáticos comisión a Buenaventura"
    s.save(update_fields=["resumen"])
    assert _encontradas("buenaventura") == {s.pk}
    assert _encontradas("ventura") == {s.pk}
    nueva = radicar(s.tipo, resumen="Viaje a Tumaco")
    assert _encontradas("tumaco viaje") == {nueva.pk}


def test_a_word_no_stored_text_holds_costs_one_query_and_finds_nothing(
    solicitudes, django_assert_num_queries
):
    qs = Solicitud.objects.radicadas()
    # On PostgreSQL the vocabulary answers alone; SQLite asks the table.
    consultas = 1
    with django_assert_num_queries(consultas):
        assert qs.buscar("zzyzx cartagena").count() == 0


def test_within_one_vocabulary_block_each_word_is_looked_up_once(
    solicitudes, django_assert_num_queries
):
    # On PostgreSQL the first search reads the vocabulary (1) and counts (1); the next ones,
    # with the same words in any order, only count. SQLite has no vocabulary to read.
    primera = 1 + vocabulario(1)
    with busqueda.un_vocabulario():
        with django_assert_num_queries(primera):
            assert Solicitud.objects.buscar("cartagena viaticos").count() == 2
        with django_assert_num_queries(1):
            assert Solicitud.objects.radicadas().buscar("VIATICOS cartagena").count() == 2
        with django_assert_num_queries(1):
            assert Solicitud.objects.buscar("cartagena").count() == 2
        # Words not read yet are read (both in one query), and the answer is the rule's.
        esperadas = _esperadas(list(Solicitud.objects.all()), "cartagen certificacion")
        with django_assert_num_queries(primera):
            assert _encontradas("cartagen certificacion") == esperadas
    # Outside the block nothing is kept.
    with django_assert_num_queries(primera):
        assert Solicitud.objects.buscar("cartagena viaticos").count() == 2


def test_a_word_read_in_one_block_is_read_again_in_the_next(solicitudes):
    with busqueda.un_vocabulario():
        assert _encontradas("buenaventura") == set()
    s = solicitudes[0]
    s.resumen = "Viáticos comisión a Buenaventura"
    s.save(update_fields=["resumen"])
    with busqueda.un_vocabulario():
        assert _encontradas("buenaventura") == {s.pk}


def test_the_postgresql_search_filters_by_the_word_array_and_sqlite_by_like(solicitudes):
    sql = str(Solicitud.objects.buscar("cartagena").query)
    if connection.vendor == "postgresql":
        assert "hub_palabras" in sql and "&&" in sql and "LIKE" not in sql
    else:
        assert "LIKE" in sql and "hub_palabras" not in sql


def test_the_vocabulary_keeps_every_stored_word_in_pieces_that_fit_an_index(solicitudes):
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = 'hub_palabra'")
            assert cursor.fetchone() == (0,)
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(length(palabra)), count(*) FROM hub_palabra")
        largo, cuantas = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM hub_palabra WHERE palabra ~ '[0-9 ]'")
        assert cursor.fetchone() == (0,)  # numbers stay out: one per request would be a million
        cursor.execute(
            "SELECT count(*) FROM hub_palabra WHERE palabra IN ('cartagena', 'cartagenero')"
        )
        assert cursor.fetchone() == (2,)
    assert largo == busqueda.PIEZA
    assert cuantas > len(RESUMENES)


def test_every_searchable_model_has_the_word_index_exactly_on_postgresql():
    tablas = {
        m._meta.db_table
        for m in apps.get_models()
        if issubclass(m, ConBusqueda) and not m._meta.proxy
    }
    assert "solicitudes_solicitud" in tablas and len(tablas) == 6
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tablename FROM pg_indexes WHERE indexdef LIKE '%%hub_palabras(busqueda)%%'"
            )
            con_indice = {fila[0] for fila in cursor.fetchall()}
            cursor.execute(
                "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'hub_anotar_palabras' "
                "GROUP BY c.relname HAVING count(*) = 2"
            )
            con_disparadores = {fila[0] for fila in cursor.fetchall()}
            assert con_indice == tablas
            assert con_disparadores == tablas
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE name LIKE '%%_palabras'")
            assert cursor.fetchall() == []


@pytest.mark.parametrize("texto,limite", [("cartagena", 1), ("cartagen", 2), ("a", 50), ("zzz", 5)])
def test_the_total_and_page_in_one_query_match_a_count_and_a_slice(
    solicitudes, texto, limite, django_assert_num_queries
):
    qs = Solicitud.objects.buscar(texto).para_busqueda()
    esperado = (qs.count(), list(qs.values_list("pk", flat=True)[:limite]))
    qs = Solicitud.objects.buscar(texto).para_busqueda()
    vacia = texto == "zzz" and connection.vendor == "postgresql"  # the vocabulary answered
    with django_assert_num_queries(0 if vacia else 1):
        assert busqueda.total_y_pagina(qs, limite) == esperado


@pytest.mark.parametrize("texto,limite", [("cartagena", 1), ("cartagen", 2), ("a", 50), ("zzz", 5)])
def test_the_total_and_the_rows_in_one_statement_match_a_count_and_a_slice(
    solicitudes, texto, limite, django_assert_num_queries
):
    columnas = ("numero_radicado", "tipo__nombre", "etapa_actual__nombre", "resumen")
    qs = Solicitud.objects.buscar(texto).para_busqueda()
    esperado = (qs.count(), list(qs.values_list("pk", *columnas)[:limite]))
    qs = Solicitud.objects.buscar(texto).para_busqueda()
    vacia = texto == "zzz" and connection.vendor == "postgresql"  # the vocabulary answered
    postgres = connection.vendor == "postgresql"
    # PostgreSQL: one statement; elsewhere the aggregate and, when it found rows, the page.
    consultas = 0 if vacia else 1 if postgres or not esperado[0] else 2
    with django_assert_num_queries(consultas):
        assert busqueda.total_y_filas(qs, columnas, limite) == esperado


def test_the_total_and_the_rows_of_an_empty_queryset_cost_no_query(
    solicitudes, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert busqueda.total_y_filas(Solicitud.objects.none(), ("resumen",), 5) == (0, [])
        assert busqueda.total_y_primeras(Solicitud.objects.none(), 5) == (0, [])


@pytest.mark.parametrize("texto,limite", [("cartagena", 1), ("cartagen", 2), ("a", 50), ("zzz", 5)])
def test_the_total_and_the_first_models_in_one_query_match_a_count_and_a_slice(
    solicitudes, texto, limite, django_assert_num_queries
):
    qs = Solicitud.objects.buscar(texto).order_by("resumen", "pk")
    esperado = (qs.count(), list(qs[:limite]))
    qs = Solicitud.objects.buscar(texto).order_by("resumen", "pk")
    vacia = texto == "zzz" and connection.vendor == "postgresql"  # the vocabulary answered
    with django_assert_num_queries(0 if vacia else 1):
        assert busqueda.total_y_primeras(qs, limite) == esperado
