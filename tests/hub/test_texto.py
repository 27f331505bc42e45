from __future__ import annotations

import pytest

from hub.busqueda.texto import limpiar, normalizar, recortar


@pytest.mark.parametrize(
    ("entrada", "esperada"),
    [
        ("Petición  de CERTIFICADO", "peticion de certificado"),
        ("ÑANDÚ", "nandu"),
        ("  espacios\t\nvarios ", "espacios varios"),
        ("", ""),
        (None, ""),
    ],
)
def test_normalizar_strips_accents_case_and_extra_spaces(entrada, esperada):
    assert normalizar(entrada) == esperada


def test_limpiar_removes_invisible_bidi_and_control_characters_but_keeps_text():
    sucio = "Hola\u202e\u200b mundo\x00\x07 \ud800ñ\n"
    assert limpiar(sucio) == "Hola mundo ñ\n"


def test_recortar_cuts_with_an_ellipsis_only_when_needed():
    assert recortar("corto", 10) == "corto"
    assert recortar("a" * 20, 10) == "a" * 9 + "…"
    assert len(recortar("palabra " * 50, 30)) <= 30
