"""The report builder behind reporte_preparar's link: the same rows as the tool, real files,
a clear page for a bad link, and only for the tool's people."""

from __future__ import annotations

import base64
import csv
import datetime
import html
import io
import json
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import openpyxl
import pytest

from apps.mcp.models import AjustesAsistente
from apps.presupuesto import exportar, reportes, services
from apps.presupuesto.models import Cdp
from tests.factories import AreaFactory, UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import llamar
from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido

pytestmark = pytest.mark.django_db

PERSONALIZADOS = "presupuesto.reportes.personalizados"
USAR = "mcp.asistente.usar"
CONSTRUCTOR = "/presupuesto/reportes/constructor"


@pytest.fixture
def datos():
    AjustesAsistente.olvidar()
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de TI")
    proyecto, _ = celda("5000000", area=oap)
    services.asignar(proyecto=proyecto, area=oti, valor="100000")
    for i, valor in enumerate(("1500000.50", "200", "300")):
        cdp = cdp_expedido(proyecto, oap, valor, objeto=f"Consultoría de planeación número {i}")
        rp_expedido(cdp, "100", beneficiario="Proveedora Andina S.A.S.")
    services.solicitar_cdp(proyecto=proyecto, area=oap, valor="50", objeto="Aún solicitado")
    cdp_expedido(proyecto, oti, "5000", objeto="Licencias de la OTI")
    return {
        "oap": UserFactory(username="oap", areas=[oap], permisos=[USAR, PERSONALIZADOS]),
        "todas": UserFactory(
            username="todas", permisos=[USAR, PERSONALIZADOS, "presupuesto.areas.todas"]
        ),
        "sin_permiso": UserFactory(username="sinperm", areas=[oap]),
    }


def _enlace_de_la_herramienta(client, usuario, ficha: dict) -> dict:
    cabeceras = {"X-MCP-Api-Key": nueva_clave()[1], "X-MCP-User-Token": nuevo_token(usuario)[1]}
    r = llamar(client, "reporte_preparar", {"ficha": ficha}, **cabeceras)
    return r.resultado["structuredContent"]


def _bajar(client, enlace: str, formato: str):
    r = client.get(f"{enlace}&descargar={formato}")
    assert r.status_code == 200, r.content[:300]
    return r, b"".join(r.streaming_content)


def _texto(r) -> str:
    return html.unescape(r.content.decode())


FICHA = {
    "fuente": "cdp",
    "titulo": "CDP expedidos de planeación",
    "filtros": [{"campo": "estado", "op": "eq", "valor": "expedido"}],
    "formato": "xlsx",
}


def test_the_tools_link_opens_the_builder_prefilled_with_the_same_count(client, datos):
    tool = _enlace_de_la_herramienta(client, datos["oap"], FICHA)
    assert tool["total_filas"] == 3  # OAP's expedited CDPs, not OTI's
    client.force_login(datos["oap"])
    r = client.get(tool["enlace"])
    assert r.status_code == 200
    texto = _texto(r)
    assert "CDP expedidos de planeación" in texto
    assert r.context["vista"]["total_filas"] == tool["total_filas"]
    assert r.context["vista"]["ficha"] == tool["ficha"]
    assert 'value="CDP expedidos de planeación"' in texto
    assert '<option value="estado" selected>' in texto  # the filter, prefilled
    assert "Consultoría de planeación número 0" in texto  # the preview
    assert "Licencias de la OTI" not in texto
    assert f'href="{tool["enlace"]}&amp;descargar=xlsx"' in r.content.decode()


def test_the_xlsx_has_exactly_the_tools_rows_with_real_types(client, datos):
    tool = _enlace_de_la_herramienta(client, datos["oap"], FICHA)
    client.force_login(datos["oap"])
    r, contenido = _bajar(client, tool["enlace"], "xlsx")
    assert r["Content-Type"] == exportar.TIPOS_CONTENIDO["xlsx"]
    hoy = datetime.date.today().isoformat()
    assert r["Content-Disposition"] == (
        f'attachment; filename="cdp-expedidos-de-planeacion-{hoy}.xlsx"'
    )
    libro = openpyxl.load_workbook(io.BytesIO(contenido))
    hoja = libro.active
    filas = list(hoja.iter_rows(values_only=True))
    assert len(filas) - 1 == tool["total_filas"] == int(r["X-Total-Filas"])
    assert list(filas[0]) == [c["etiqueta"] for c in tool["columnas"]]
    por_numero = {f[0]: dict(zip(filas[0], f, strict=True)) for f in filas[1:]}
    grande = next(c for c in Cdp.objects.filter(valor_inicial=Decimal("1500000.50")))
    fila = por_numero[grande.numero]
    assert fila["Valor inicial"] == 1500000.5  # a number, not text
    assert fila["Estado"] == "Expedido"  # as people read it
    assert fila["Área"] == "OAP"
    assert isinstance(fila["Fecha de expedición"], datetime.datetime)
    columna = [c["etiqueta"] for c in tool["columnas"]].index("Valor inicial") + 1
    assert hoja.cell(row=2, column=columna).number_format == "#,##0.00"


def test_the_csv_is_utf8_with_bom_and_the_same_rows(client, datos):
    ficha = {**FICHA, "formato": "csv"}
    tool = _enlace_de_la_herramienta(client, datos["oap"], ficha)
    client.force_login(datos["oap"])
    r, contenido = _bajar(client, tool["enlace"], "csv")
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert r["Content-Disposition"].startswith("attachment; filename=")
    assert contenido.startswith(b"\xef\xbb\xbf")
    filas = list(csv.reader(io.StringIO(contenido.decode("utf-8-sig")), delimiter=";"))
    assert len(filas) - 1 == tool["total_filas"]
    assert filas[0][0] == "Número" and "Área" in filas[0]  # accents intact
    valores = {f[filas[0].index("Valor inicial")] for f in filas[1:]}
    assert "1500000,50" in valores  # decimal comma, for Excel in Spanish


def test_the_download_has_only_what_the_person_may_see(client, datos):
    ficha = {"fuente": "cdp", "formato": "csv"}
    for quien, esperadas in (("oap", 4), ("todas", 5)):
        tool = _enlace_de_la_herramienta(client, datos[quien], ficha)
        assert tool["total_filas"] == esperadas
        client.force_login(datos[quien])
        _, contenido = _bajar(client, tool["enlace"], "csv")
        assert contenido.decode("utf-8-sig").count("\r\n") - 1 == esperadas


def test_text_that_looks_like_a_formula_stays_text(client, datos):
    Cdp.objects.filter(objeto="Aún solicitado").update(objeto='=HYPERLINK("http://x","y")')
    ficha = {"fuente": "cdp", "columnas": ["numero", "objeto"], "formato": "xlsx"}
    tool = _enlace_de_la_herramienta(client, datos["oap"], ficha)
    client.force_login(datos["oap"])
    _, contenido = _bajar(client, tool["enlace"], "xlsx")
    hoja = openpyxl.load_workbook(io.BytesIO(contenido)).active
    celdas = [c for fila in hoja.iter_rows(min_row=2) for c in fila if c.column == 2]
    sospechosa = next(c for c in celdas if str(c.value).startswith("="))
    assert sospechosa.data_type == "s"  # a string cell, not a formula
    _, texto = _bajar(client, tool["enlace"], "csv")
    assert "'=HYPERLINK" in texto.decode("utf-8-sig")


def test_rows_are_read_in_batches_not_all_at_once(datos):
    ficha = reportes.validar_ficha({"fuente": "cdp"})
    todas = list(reportes.valores(datos["todas"], ficha, lote=2))
    assert len(todas) == reportes.filas(datos["todas"], ficha).count() == 5


@pytest.mark.parametrize(
    "codigo",
    [
        "%%%no-es-base64",
        base64.urlsafe_b64encode(b"no es json").decode(),
        base64.urlsafe_b64encode(json.dumps({"fuente": "usuarios"}).encode()).decode(),
        base64.urlsafe_b64encode(
            json.dumps({"fuente": "cdp", "filtros": [{"campo": "clave", "valor": 1}]}).encode()
        ).decode(),
        "A" * 100_001,
    ],
)
def test_an_unreadable_or_tampered_ficha_is_a_clear_page_never_a_500(client, datos, codigo):
    client.force_login(datos["oap"])
    for sufijo in ("", "&descargar=xlsx"):
        r = client.get(f"{CONSTRUCTOR}?ficha={codigo}{sufijo}")
        assert r.status_code == 400
        texto = _texto(r)
        assert "Este enlace de reporte no es válido" in texto
        assert "Empezar un reporte nuevo" in texto
        assert r["Content-Type"].startswith("text/html")


def test_an_unknown_download_format_is_a_clear_page(client, datos):
    tool = _enlace_de_la_herramienta(client, datos["oap"], FICHA)
    client.force_login(datos["oap"])
    r = client.get(f"{tool['enlace']}&descargar=pdf")
    assert r.status_code == 400
    assert "Formato de descarga desconocido" in _texto(r)


def test_without_the_tools_permission_the_builder_is_404(client, datos):
    client.force_login(datos["sin_permiso"])
    assert client.get(CONSTRUCTOR).status_code == 404
    codigo = reportes.enlace_constructor({"fuente": "cdp", "titulo": "x" * 3, "formato": "csv"})
    assert client.get(f"{codigo}&descargar=csv").status_code == 404


def test_without_a_session_the_builder_asks_to_sign_in(client, datos):
    r = client.get(CONSTRUCTOR)
    assert r.status_code == 302
    assert r["Location"].startswith("/cuentas/login/?next=")


def test_without_a_ficha_the_builder_starts_a_report_of_every_visible_cdp(client, datos):
    client.force_login(datos["oap"])
    r = client.get(CONSTRUCTOR)
    assert r.status_code == 200
    assert r.context["vista"]["total_filas"] == 4


def _aplicar(client, **campos):
    base = {"aplicar": "1", "fuente": "cdp", "fuente_anterior": "cdp", "formato": "xlsx"}
    return client.get(CONSTRUCTOR, {**base, **campos})


def _ficha_de(location: str) -> dict:
    codigo = parse_qs(urlsplit(location).query)["ficha"][0]
    return reportes.ficha_de_enlace(codigo).como_dict()


def test_changing_the_definition_leads_to_the_new_reports_address(client, datos):
    client.force_login(datos["oap"])
    r = _aplicar(
        client,
        titulo="CDP grandes",
        formato="csv",
        f0_campo="valor_actual",
        f0_op="gte",
        f0_valor="1.000.000,00",  # written as people write amounts here
        f1_campo="estado",
        f1_op="en",
        f1_valor="expedido; agotado",
        columna=["numero", "valor_actual"],
        o0_campo="valor_actual",
        o0_sentido="desc",
    )
    assert r.status_code == 302
    assert _ficha_de(r["Location"]) == {
        "fuente": "cdp",
        "titulo": "CDP grandes",
        "formato": "csv",
        "filtros": [
            {"campo": "valor_actual", "op": "gte", "valor": Decimal("1000000.00")},
            {"campo": "estado", "op": "en", "valor": ["expedido", "agotado"]},
        ],
        "columnas": ["numero", "valor_actual"],
        "orden": ["-valor_actual"],
    }
    r = client.get(r["Location"])
    assert r.context["vista"]["total_filas"] == 1


def test_a_definition_with_problems_comes_back_with_them_named(client, datos):
    client.force_login(datos["oap"])
    r = _aplicar(client, f0_campo="valor_actual", f0_op="contiene", f0_valor="mucho", columna=[])
    assert r.status_code == 422
    texto = _texto(r)
    assert "Revise la definición del reporte" in texto
    assert "Filtro 1 (condición)" in texto
    assert 'value="mucho"' in texto  # what the person typed is kept


def test_changing_the_source_starts_its_filters_and_columns_again(client, datos):
    client.force_login(datos["oap"])
    r = _aplicar(client, fuente="paa", fuente_anterior="cdp", f0_campo="saldo", f0_valor="1")
    assert r.status_code == 302
    assert _ficha_de(r["Location"]) == {
        "fuente": "paa",
        "titulo": "Líneas del Plan Anual de Adquisiciones (PAA)",
        "formato": "xlsx",
        "filtros": [],
    }


def test_a_report_over_the_files_limit_says_so_instead_of_timing_out(client, datos, monkeypatch):
    monkeypatch.setitem(exportar.MAX_FILAS, "xlsx", 2)
    tool = _enlace_de_la_herramienta(client, datos["oap"], {"fuente": "cdp"})
    client.force_login(datos["oap"])
    r = client.get(f"{tool['enlace']}&descargar=xlsx")
    assert r.status_code == 422
    assert "El reporte tiene 4 filas y en Excel (.xlsx) se descargan hasta 2" in _texto(r)
    assert client.get(f"{tool['enlace']}&descargar=csv").status_code == 200
