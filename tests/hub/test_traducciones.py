"""The project's corrections to Django's Spanish: the compiled catalogues match their sources,
and they are the ones in use."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

CARPETA = Path(__file__).resolve().parents[2] / "locale" / "es_CO" / "LC_MESSAGES"


def _leer_po(ruta: Path) -> dict[tuple[str | None, str], str]:
    """(context, msgid) -> msgstr (singular form) of a .po file; a small reader for our files."""
    entradas: dict[tuple[str | None, str], str] = {}
    actual: dict[str, str] = {}
    clave = None

    def cerrar() -> None:
        if actual.get("msgid"):
            entradas[(actual.get("msgctxt"), actual["msgid"])] = actual.get(
                "msgstr", actual.get("msgstr[0]", "")
            )

    for linea in [*ruta.read_text(encoding="utf-8").splitlines(), ""]:
        linea = linea.strip()
        if not linea:
            cerrar()
            actual, clave = {}, None
        elif linea.startswith("#"):
            continue
        elif linea.startswith('"'):
            actual[clave] += ast.literal_eval(linea)
        else:
            clave, _, valor = linea.partition(" ")
            actual[clave] = ast.literal_eval(valor)
    return entradas


@pytest.mark.parametrize("dominio", ["django", "djangojs"])
def test_each_compiled_catalogue_matches_its_source(dominio):
    fuente = _leer_po(CARPETA / f"{dominio}.po")
    with open(CARPETA / f"{dominio}.mo", "rb") as archivo:
        compilado = gettext.GNUTranslations(archivo)
    assert len(fuente) > 10
    for (contexto, msgid), msgstr in fuente.items():
        if contexto is None:
            assert compilado.gettext(msgid) == msgstr, msgid
        else:
            assert compilado.pgettext(contexto, msgid) == msgstr, (contexto, msgid)


def test_month_and_day_names_are_lower_case_in_dates():
    from datetime import date

    with translation.override("es-co"):
        # DATE_FORMAT is d/m/Y (hub.formatos, issue 41): the month's name, spelled out.
        assert date_format(date(2026, 3, 5), "j \\d\\e F \\d\\e Y") == "5 de marzo de 2026"
        assert date_format(date(2026, 3, 5), "l j \\d\\e F") == "jueves 5 de marzo"
        assert pgettext("alt. month", "December") == "diciembre"
        assert _("Log out") == "Cerrar sesión"
        assert _("Save") == "Guardar"
