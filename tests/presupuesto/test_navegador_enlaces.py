"""In a real browser, over the demo: the links of a tool result open the CDP screen and the report
builder, whose Excel download has the rows the tool counted; and every new page reads well on a
desktop and on a phone (screenshots under var/capturas/)."""

from __future__ import annotations

import httpx
import openpyxl
import pytest

from apps.calidad.models import Documento
from apps.firmas.models import Firma
from apps.presupuesto import reportes
from apps.presupuesto.models import Cdp, LineaPaa, Rp
from apps.solicitudes.models import Solicitud
from tests.conftest import CAPTURAS
from tests.demo import ingresar_a_la_demo
from tests.navegador_csp import vigilar_csp
from tests.navegador_menu import abrir_menu

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.navegador,
    pytest.mark.urls("tests.hub.urls_paginas"),
]


def _herramienta(base: str, demo: dict, nombre: str, argumentos: dict) -> dict:
    r = httpx.post(
        f"{base}/mcp/api/mcp",
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": nombre, "arguments": argumentos},
        },
        headers={"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]},
        timeout=30,
    )
    resultado = r.json()["result"]
    assert resultado["isError"] is False, resultado
    return resultado["structuredContent"]


def test_a_tools_links_open_the_cdp_and_the_builder_whose_excel_has_the_counted_rows(
    navegador, demo_en_vivo, tmp_path
):
    pagina = navegador(1280, 900, accept_downloads=True)
    violaciones = vigilar_csp(pagina)
    base = pagina.base
    cdp = _herramienta(base, demo_en_vivo, "estado_cdp", {"numero": demo_en_vivo["cdp"]})
    ficha = {"fuente": "cdp", "titulo": "CDP de la vigencia", "formato": "xlsx"}
    reporte = _herramienta(base, demo_en_vivo, "reporte_preparar", {"ficha": ficha})
    assert cdp["url"] == base + cdp["enlace"]
    assert reporte["url"] == base + reporte["enlace"]

    ingresar_a_la_demo(pagina)
    respuesta = pagina.goto(cdp["url"])
    assert respuesta.status == 200
    assert pagina.url == cdp["url"]  # not the admin, not the sign-in page
    assert demo_en_vivo["cdp"] in pagina.inner_text("h1")
    assert "Valores y saldo" in pagina.inner_text("main")

    respuesta = pagina.goto(reporte["url"])
    assert respuesta.status == 200
    total = reporte["total_filas"]
    assert pagina.inner_text(".total-filas") == f"{total:,}".replace(",", ".")
    with pagina.expect_download() as descarga:
        pagina.click("text=Descargar Excel (.xlsx)")
    archivo = tmp_path / descarga.value.suggested_filename
    descarga.value.save_as(archivo)
    assert archivo.name.startswith("cdp-de-la-vigencia-") and archivo.suffix == ".xlsx"
    hoja = openpyxl.load_workbook(archivo).active
    filas = list(hoja.iter_rows(values_only=True))
    assert len(filas) - 1 == total
    assert list(filas[0]) == [c["etiqueta"] for c in reporte["columnas"]]
    assert violaciones == []


def _paginas(demo: dict) -> dict[str, str]:
    """name -> path of every page this issue adds or changes."""
    cdp = Cdp.objects.get(numero=demo["cdp"])
    rp = Rp.objects.get(numero=demo["rp"])
    linea = LineaPaa.objects.filter(cdps__isnull=False).first()
    anulada = Firma.objects.get(token=demo["firmas"]["anulada"])
    con_cdp = Solicitud.objects.filter(numero_radicado__in=Cdp.objects.values("numero_radicado"))
    documento = Documento.objects.vigentes().get(codigo_publicado=demo["documento"])
    ficha = {"fuente": "rp", "titulo": "RP por obligar", "formato": "xlsx"}
    return {
        "inicio": "/",
        "cdp": cdp.enlace,
        "rp": rp.enlace,
        "linea_paa": linea.enlace,
        "constructor": reportes.enlace_constructor(reportes.validar_ficha(ficha).como_dict()),
        "constructor_invalido": "/presupuesto/reportes/constructor?ficha=roto",
        "documento_calidad": documento.enlace,
        "solicitud_con_presupuesto": con_cdp.first().enlace,
        "verificar_formulario": "/presupuesto/verificar/",
        "verificar_anulada": anulada.ruta_verificacion(),
        "error_404": "/no-existe/",
        "error_403": "/prueba/prohibida",
        "error_429": "/prueba/limitada",
        "error_500": "/prueba/rota",
    }


def test_every_new_page_reads_well_on_a_desktop_and_on_a_phone(navegador, demo_en_vivo):
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    paginas = _paginas(demo_en_vivo)
    for ancho, alto in ((1280, 900), (390, 844)):
        pagina = navegador(ancho, alto)
        violaciones = vigilar_csp(pagina)
        ingresar_a_la_demo(pagina)
        for nombre, ruta in paginas.items():
            pagina.goto(pagina.base + ruta)
            assert "/cuentas/login/" not in pagina.url, nombre
            assert pagina.locator("header.barra").count() == 1, nombre  # branded header
            ancho_real = pagina.evaluate("document.documentElement.scrollWidth")
            assert ancho_real <= ancho, (nombre, ancho_real)  # nothing runs off the screen
            pagina.screenshot(path=str(CAPTURAS / f"{nombre}_{ancho}.png"), full_page=True)
        # A form sent without its CSRF token (its page stayed open too long, say).
        pagina.goto(pagina.base + "/cuentas/perfil/")
        pagina.evaluate(
            "document.querySelectorAll('[name=csrfmiddlewaretoken]').forEach(e => e.remove())"
        )
        abrir_menu(pagina)
        pagina.click("text=Cerrar sesión")
        pagina.wait_for_load_state()
        assert "El formulario venció" in pagina.inner_text("h1")
        pagina.screenshot(path=str(CAPTURAS / f"error_csrf_{ancho}.png"), full_page=True)
        assert violaciones == [], violaciones
