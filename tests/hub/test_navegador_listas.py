"""In a real browser, over the demo: each list that finds is reached from the header, searched
through its own form, and reads well at 1280 and 390 px (rows become cards on a phone, amounts
and numbers never break); screenshots under var/capturas/lista_*."""

from __future__ import annotations

import re

import pytest

from apps.presupuesto.models import Cdp, LineaPaa, Rp
from tests.demo import ingresar_a_la_demo
from tests.navegador_csp import vigilar_csp
from tests.navegador_menu import abrir_menu
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

ANCHOS = ((1280, 900), (390, 844))


def _palabra(texto: str) -> str:
    """A long word of `texto` (something a person would type to find it)."""
    return max(re.findall(r"\w+", texto), key=len)


def _busquedas(demo: dict) -> dict[str, tuple[str, str, dict[str, str]]]:
    """name -> (header link that leads there, path, what to type and choose)."""
    cdp = Cdp.objects.get(numero=demo["cdp"])
    rp = Rp.objects.get(numero=demo["rp"])
    linea = LineaPaa.objects.filter(cdps__isnull=False).first()
    return {
        "solicitudes": ("Solicitudes", "/solicitudes/", {"q": "certificado", "alcance": "todas"}),
        "cdp": ("Presupuesto", "/presupuesto/cdp/", {"q": _palabra(cdp.objeto)}),
        "rp": ("Presupuesto", "/presupuesto/rp/", {"q": _palabra(rp.objeto)}),
        "paa": ("Presupuesto", "/presupuesto/paa/", {"q": _palabra(linea.objeto)}),
        "documentos": ("Documentos de calidad", "/calidad/documentos/", {"q": "procedimiento"}),
    }


def test_each_list_is_found_from_the_header_searched_and_reads_well(navegador, demo_en_vivo):
    busquedas = _busquedas(demo_en_vivo)
    for ancho, alto in ANCHOS:
        pagina = navegador(ancho, alto, locale="es-CO")
        violaciones = vigilar_csp(pagina)
        ingresar_a_la_demo(pagina)
        for nombre, (enlace, ruta, campos) in busquedas.items():
            pagina.goto(pagina.base + "/")
            abrir_menu(pagina)
            pagina.locator("header.barra").get_by_role("link", name=enlace, exact=True).click()
            pagina.wait_for_load_state()
            if ruta.startswith("/presupuesto/") and ruta != "/presupuesto/cdp/":
                # The budget lists link to each other.
                pagina.locator(f"nav a[href='{ruta}']").click()
                pagina.wait_for_load_state()
            assert pagina.url == pagina.base + ruta, nombre
            if len(campos) > 1:
                pagina.click("summary")  # the filters are folded until one is used
            for campo, valor in campos.items():
                if pagina.locator(f"select[name={campo}]").count():
                    pagina.select_option(f"select[name={campo}]", valor)
                else:
                    pagina.fill(f"input[name={campo}]", valor)
            pagina.get_by_role("button", name="Buscar", exact=True).click()
            pagina.wait_for_load_state()
            assert f"q={campos['q']}" in pagina.url, nombre
            filas = pagina.locator("#resultados tbody tr")
            assert filas.count() >= 1, nombre
            assert ancho_de_pagina(pagina) <= ancho, nombre  # nothing runs off the screen
            # Amounts, numbers and codes are one token each: never broken across lines.
            assert palabras_partidas(pagina, "#resultados .cifra, #resultados .codigo") == []
            celda = filas.first.locator("td").first
            display = celda.evaluate("e => getComputedStyle(e).display")
            assert display == ("table-cell" if ancho > 760 else "block"), nombre  # cards
            capturar(pagina, f"lista_{nombre}_{ancho}")
        assert violaciones == [], violaciones


def test_a_filter_and_a_sort_chosen_in_the_form_survive_paging(navegador, demo_en_vivo):
    pagina = navegador(1280, 900)
    ingresar_a_la_demo(pagina)
    pagina.goto(pagina.base + "/solicitudes/?alcance=todas")
    assert pagina.locator("details.mas-filtros").get_attribute("open") == ""  # one in use
    assert pagina.inner_text("summary") == "Filtros y orden (1 en uso)"
    pagina.select_option("select[name=orden]", "numero")
    pagina.get_by_role("button", name="Buscar", exact=True).click()
    pagina.wait_for_load_state()
    primera = pagina.locator("#resultados tbody tr td a").first.inner_text()
    siguiente = pagina.get_by_role("link", name="Siguiente")
    assert siguiente.count() == 1
    siguiente.click()
    pagina.wait_for_load_state()
    assert "orden=numero" in pagina.url and "alcance=todas" in pagina.url
    assert "pagina=2" in pagina.url
    assert "Página 2 de" in pagina.inner_text(".paginas")
    assert pagina.locator("#resultados tbody tr td a").first.inner_text() > primera


def test_a_bad_date_typed_in_the_address_shows_the_error_beside_its_field(navegador, demo_en_vivo):
    pagina = navegador(390, 844)
    ingresar_a_la_demo(pagina)
    respuesta = pagina.goto(pagina.base + "/presupuesto/cdp/?desde=2026-13-40&q=x")
    assert respuesta.status == 400
    assert pagina.locator("#error_desde").count() == 1
    assert pagina.locator("#id_desde").get_attribute("aria-invalid") == "true"
    assert ancho_de_pagina(pagina) <= 390
    capturar(pagina, "lista_error_fecha_390")
