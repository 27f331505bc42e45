from __future__ import annotations

import time

import pytest

from apps.calidad import uid as modulo
from apps.calidad.uid import es_uid, instante_ms, nuevo_uid
from tests.calidad.factories import DocumentoFactory


def test_a_uid_is_26_crockford_base32_characters():
    valor = nuevo_uid()
    assert len(valor) == 26
    assert es_uid(valor)
    assert not set(valor) & set("ILOU")


@pytest.mark.parametrize(
    "texto", ["", "0" * 25, "0" * 27, "8" + "0" * 25, "0" * 25 + "I", "0" * 25 + "u"]
)
def test_malformed_uids_are_recognized(texto):
    assert not es_uid(texto)


def test_uids_made_one_after_another_sort_in_creation_order():
    valores = [nuevo_uid() for _ in range(5000)]
    assert valores == sorted(valores)
    assert len(set(valores)) == 5000


def test_uids_of_the_same_millisecond_still_increase():
    ms = int(time.time() * 1000) + 10_000
    a, b, c = nuevo_uid(ms), nuevo_uid(ms), nuevo_uid(ms)
    assert a < b < c
    assert instante_ms(a) == instante_ms(c) == ms


def test_a_clock_that_steps_back_does_not_break_the_order():
    futuro = int(time.time() * 1000) + 20_000
    a = nuevo_uid(futuro)
    b = nuevo_uid(futuro - 5000)
    assert b > a


def test_the_time_part_carries_the_creation_instant():
    antes = int(time.time() * 1000)
    valor = nuevo_uid()
    assert instante_ms(valor) >= antes


def test_codificar_is_big_endian_and_padded():
    assert modulo.codificar(0) == "0" * 26
    assert modulo.codificar(31) == "0" * 25 + "Z"
    assert modulo.codificar((1 << 128) - 1) == "7" + "Z" * 25


@pytest.mark.django_db
def test_documents_get_a_uid_by_default():
    documento = DocumentoFactory()
    assert es_uid(documento.uid)
