"""The article before an organization's name: "la mesa de ayuda del Instituto…"."""

from __future__ import annotations

import pytest

from hub.administracion.gramatica import articulo_de, de_entidad


@pytest.mark.parametrize(
    ("nombre", "esperado"),
    [
        ("Instituto Distrital de Gestión Pública", "del Instituto Distrital de Gestión Pública"),
        ("Secretaría de Hacienda", "de la Secretaría de Hacienda"),
        ("Alcaldía Mayor", "de la Alcaldía Mayor"),
        ("Universidad Nacional", "de la Universidad Nacional"),
        ("Agencia Nacional", "de la Agencia Nacional"),
        ("Empresas Públicas", "de las Empresas Públicas"),
        ("Servicios Postales", "de los Servicios Postales"),
        ("Sistema Integrado", "del Sistema Integrado"),
        ("IDGP", "de IDGP"),
    ],
)
def test_the_article_is_deduced_from_the_first_word(nombre, esperado):
    assert de_entidad(nombre) == esperado


def test_the_brands_article_wins_and_a_dash_means_none():
    assert de_entidad("Bogotá Digital", "-") == "de Bogotá Digital"
    assert de_entidad("Bogotá Digital", "la") == "de la Bogotá Digital"
    assert articulo_de("") == "-"
