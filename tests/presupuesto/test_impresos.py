"""The print view and the PDF of each signed budget document: what they state, each signature's
QR code and typed code, who may print them (whoever may see the document; anyone else 404), the
paper they fit, and the links to them from the document's screen and its admin page."""

from __future__ import annotations

import base64
import html

import pytest
import zxingcpp
from PIL import Image

from apps.firmas import services as firmas
from apps.presupuesto import services
from apps.presupuesto.models import Cdp
from tests.conftest import CAPTURAS
from tests.factories import UserFactory
from tests.marca.factories import cambiar_marca, png, poner_imagen
from tests.presupuesto.escaner import codigos_qr, tamano_pagina
from tests.presupuesto.mundos import cdp_de_oap

pytestmark = pytest.mark.django_db

PLANEACION = "presupuesto.planeacion.consultar"
REPORTES = "presupuesto.reportes.consultar"
A4, CARTA = (595, 842), (612, 792)


@pytest.fixture
def mundo(settings):
    """A CDP with its PAA line, RP and movement, each signed; people of every kind."""
    settings.HUB_URL_PUBLICA = "https://hub.entidad.gov.co"
    m = cdp_de_oap(
        objeto="Apoyo a la planeación institucional",
        reduccion="Ajuste por menor valor",
        campos_cdp={"dependencia": "Grupo de proyectos"},
        campos_rp={"documento_beneficiario": "52.123.456"},
    )
    area, otra = m["area"], m["otra"]
    firma = firmas.firmar(documento=m["cdp"], firmante="Camila Rojas Díaz", rol="Ordenadora")
    anulada = firmas.firmar(documento=m["rp"], firmante="Jorge Salazar", rol="Ordenador")
    firmas.anular(firma=anulada, motivo="Proceso reiniciado")
    firmas.firmar(documento=m["rp"], firmante="Luisa Pérez", rol="Ordenadora del gasto")
    firmas.firmar(documento=m["movimiento"], firmante="Ricardo Mejía Soto", rol="Profesional")
    firmas.firmar(documento=m["linea"], firmante="Diana Téllez", rol="Planeación")
    return {
        **m,
        "cdp": Cdp.objects.get(pk=m["cdp"].pk),
        "firma": firma,
        "anulada": anulada,
        "duena": UserFactory(areas=[area], permisos=[PLANEACION]),
        "todas": UserFactory(areas=[otra], permisos=[PLANEACION, "presupuesto.areas.todas"]),
        "ajena": UserFactory(areas=[otra], permisos=[PLANEACION]),
        "sin_permiso": UserFactory(areas=[area], permisos=["solicitudes.radicar"]),
        "reportes": UserFactory(areas=[area], permisos=[REPORTES]),
    }


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def _rutas(m) -> dict[str, str]:
    """The print view of each signed document (the PDF is the same path ending in /pdf)."""
    cdp = f"/presupuesto/cdp/{m['cdp'].pk}"
    return {
        "cdp": f"{cdp}/imprimir",
        "rp": f"/presupuesto/rp/{m['rp'].pk}/imprimir",
        "movimiento": f"{cdp}/movimientos/{m['movimiento'].numero}/imprimir",
        "linea": f"/presupuesto/paa/{m['linea'].pk}/imprimir",
    }


def test_the_printed_cdp_states_the_document_and_its_signature(client, mundo):
    cdp, firma = mundo["cdp"], mundo["firma"]
    client.force_login(mundo["duena"])
    r = client.get(cdp.enlace_impresion)
    assert r.status_code == 200
    assert r["Cache-Control"] == "private, no-store"
    texto = _texto(r)
    for dato in (
        "Certificado de disponibilidad presupuestal (CDP)",
        cdp.numero,
        "Expedido",
        "Apoyo a la planeación institucional",
        "Valor inicial</dt><dd>$ 900,00",
        "Valor actual</dt><dd>$ 800,00",
        "Saldo disponible</dt><dd>$ 400,00",
        "Oficina Asesora de Planeación (OAP)",
        "Grupo de proyectos",
        f"Fecha de expedición</dt><dd>{cdp.fecha_expedicion:%Y-%m-%d}",
        "Camila Rojas Díaz",
        "Ordenadora",
        f"<code>{firma.token}</code>",
        firma.url_verificacion(),
    ):
        assert dato in texto, dato
    assert "Radicado de origen" not in texto  # no request originated it: left out, no "—"
    assert "—" not in texto
    assert "Firma anulada" not in texto


def test_an_annulled_signature_prints_marked_annulled(client, mundo):
    client.force_login(mundo["duena"])
    texto = _texto(client.get(mundo["rp"].enlace_impresion))
    assert texto.count('<div class="firma anulada">') == 1
    assert texto.count('<div class="firma">') == 1
    anulada = texto.split('<div class="firma anulada">', 1)[1].split('<div class="firma">', 1)[0]
    assert "Firma anulada" in anulada and "Jorge Salazar" in anulada
    assert "esta firma ya no es válida" in anulada
    assert "52.123.456" not in texto  # the beneficiary's document is personal data


def test_the_printed_movement_and_paa_line_state_their_own_facts(client, mundo):
    client.force_login(mundo["duena"])
    movimiento = _texto(client.get(_rutas(mundo)["movimiento"]))
    assert "Movimiento de CDP: reducción" in movimiento
    assert "Valor del movimiento</dt><dd>$ 100,00" in movimiento
    assert "Ajuste por menor valor" in movimiento and "Ricardo Mejía Soto" in movimiento
    assert "Camila Rojas Díaz" not in movimiento  # the CDP's signature is not the movement's
    pago = services.registrar_movimiento_rp(
        rp=mundo["rp"], tipo="obligacion", valor="50", descripcion="Pago 1"
    )
    firmas.firmar(documento=pago, firmante="Luisa Pérez", rol="Tesorera")
    assert pago.enlace_impresion == f"{mundo['rp'].enlace}/movimientos/{pago.numero}/imprimir"
    del_rp = _texto(client.get(pago.enlace_impresion))
    assert "Movimiento de RP: obligación" in del_rp and "Tesorera" in del_rp
    assert "Valor del movimiento</dt><dd>$ 50,00" in del_rp
    linea = _texto(client.get(_rutas(mundo)["linea"]))
    assert "Línea del Plan Anual de Adquisiciones (PAA)" in linea
    assert f"Línea {mundo['linea'].numero} · PAA" in linea and "Diana Téllez" in linea


def test_the_print_view_is_branded_with_the_logo_inlined(client, mundo):
    cambiar_marca(
        nombre="Alcaldía de Villa Esperanza",
        nombre_entidad="Alcaldía Municipal de Villa Esperanza",
        color_primario="#7a1f5c",
    )
    logo = png(lado=16)
    poner_imagen("logo", logo)
    client.force_login(mundo["duena"])
    texto = _texto(client.get(mundo["cdp"].enlace_impresion))
    assert "Alcaldía Municipal de Villa Esperanza" in texto
    assert "border-bottom: 1.2mm solid #7a1f5c" in texto.lower()
    assert '<html lang="es">' in texto
    # The PDF fetches nothing: the logo travels in the page as a data: URI.
    assert f'<img src="data:image/png;base64,{base64.b64encode(logo).decode()}"' in texto
    pdf = client.get(mundo["cdp"].enlace_pdf)
    assert (pdf.status_code, pdf.content[:5]) == (200, b"%PDF-")


@pytest.mark.parametrize("quien", ["duena", "todas"])
def test_whoever_may_see_the_document_may_print_it(client, mundo, quien):
    client.force_login(mundo[quien])
    for nombre, ruta in _rutas(mundo).items():
        if nombre == "linea":
            continue  # resumen_ejecutivo's people: below
        assert client.get(ruta).status_code == 200, nombre
    # One PDF is enough here (each costs a render); the others are printed in the tests above.
    pdf = client.get(mundo["cdp"].enlace_pdf)
    assert (pdf.status_code, pdf["Content-Type"]) == (200, "application/pdf")
    assert pdf.content.startswith(b"%PDF-")


@pytest.mark.parametrize("quien", ["ajena", "sin_permiso"])
def test_anyone_else_gets_the_same_404_as_for_a_missing_document(client, mundo, quien):
    client.force_login(mundo[quien])
    for nombre, ruta in _rutas(mundo).items():
        for final in ("imprimir", "pdf"):
            r = client.get(ruta.removesuffix("imprimir") + final)
            assert r.status_code == 404, (nombre, final)
    assert client.get("/presupuesto/cdp/999999/pdf").status_code == 404
    movimiento_inexistente = f"/presupuesto/cdp/{mundo['cdp'].pk}/movimientos/99/pdf"
    client.force_login(mundo["duena"])
    assert client.get(movimiento_inexistente).status_code == 404


def test_the_paa_line_prints_for_whoever_sees_it_and_the_cdp_does_not(client, mundo):
    client.force_login(mundo["reportes"])
    rutas = _rutas(mundo)
    assert client.get(rutas["linea"].removesuffix("imprimir") + "pdf").status_code == 200
    assert client.get(rutas["cdp"].removesuffix("imprimir") + "pdf").status_code == 404


def test_without_a_session_printing_asks_to_sign_in(client, mundo):
    ruta = mundo["cdp"].enlace_pdf
    r = client.get(ruta)
    assert r.status_code == 302
    assert r["Location"] == f"/cuentas/login/?next={ruta}"


def test_the_pdf_is_a4_by_default_and_letter_on_request_and_both_scan(client, mundo):
    """Pages rasterized under var/capturas/ at both sizes; every QR on them still decodes."""
    client.force_login(mundo["duena"])
    for documento in ("rp",):  # two signatures, one annulled (the CDP's A4: the scan test)
        ruta = mundo[documento].enlace_pdf
        for papel, consulta, tamano in (("a4", "", A4), ("carta", "?papel=carta", CARTA)):
            r = client.get(ruta + consulta)
            assert r["Content-Disposition"] == (
                f'inline; filename="{mundo[documento].numero}-{papel}.pdf"'
            )
            assert tamano_pagina(r.content) == tamano
            urls = [f.url_verificacion() for f in mundo[documento].firmas.order_by("firmado_en")]
            leidos = codigos_qr(
                r.content, guardar_en=CAPTURAS, nombre=f"impreso_{documento}_{papel}"
            )
            assert sorted(leidos) == sorted(urls)


def test_the_printed_qr_encodes_exactly_what_the_admin_qr_encodes(client, mundo):
    firma = mundo["firma"]
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    png = client.get(f"/admin/firmas/firma/{firma.pk}/qr.png")
    assert png.status_code == 200
    (admin,) = zxingcpp.read_barcodes(Image.open(__import__("io").BytesIO(png.content)))
    (impreso,) = codigos_qr(client.get(mundo["cdp"].enlace_pdf).content)
    assert impreso == admin.text == firma.url_verificacion()


def test_the_documents_screen_links_its_print_view_and_pdf(client, mundo):
    client.force_login(mundo["duena"])
    cdp, movimiento = mundo["cdp"], mundo["movimiento"]
    texto = _texto(client.get(cdp.enlace))
    assert f'href="{cdp.enlace_impresion}"' in texto and f'href="{cdp.enlace_pdf}"' in texto
    assert f'href="{movimiento.enlace_pdf}"' in texto  # a signed movement, in the table
    for clave in ("rp", "linea"):
        documento = mundo[clave]
        client.force_login(mundo["duena"] if clave == "rp" else mundo["reportes"])
        assert f'href="{documento.enlace_pdf}"' in _texto(client.get(documento.enlace))


@pytest.mark.parametrize(
    "clave, admin",
    [("cdp", "cdp"), ("rp", "rp"), ("linea", "lineapaa"), ("movimiento", "movimientocdp")],
)
def test_the_admin_page_of_each_document_links_its_print_view(admin_client, mundo, clave, admin):
    documento = mundo[clave]
    r = admin_client.get(f"/admin/presupuesto/{admin}/{documento.pk}/change/")
    assert r.status_code == 200
    texto = _texto(r)
    assert f'href="{documento.enlace_impresion}"' in texto
    assert f'href="{documento.enlace_pdf}"' in texto
