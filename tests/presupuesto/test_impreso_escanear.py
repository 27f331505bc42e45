"""Print, scan, verify: the PDF of a signed CDP, rasterized as a scanner would, carries QR codes
that a real decoder reads and that open the public verification of each signature."""

from __future__ import annotations

import html
from urllib.parse import urlsplit

import pytest

from apps.firmas import services as firmas
from tests.conftest import CAPTURAS
from tests.factories import UserFactory
from tests.presupuesto.escaner import codigos_qr
from tests.presupuesto.mundos import cdp_de_oap

pytestmark = pytest.mark.django_db

PLANEACION = "presupuesto.planeacion.consultar"
PUBLICA = "https://hub.entidad.gov.co"
API = "/presupuesto/api/v1/firmas/verificar/"


@pytest.fixture
def firmado(settings):
    settings.HUB_URL_PUBLICA = PUBLICA
    m = cdp_de_oap(objeto="Apoyo a la planeación institucional", reduccion="Menor valor")
    cdp = m["cdp"]
    ordenadora = firmas.firmar(documento=cdp, firmante="Camila Rojas Díaz", rol="Ordenadora")
    jefe = firmas.firmar(documento=cdp, firmante="Jorge Salazar", rol="Jefe de presupuesto")
    return {
        "cdp": cdp,
        "firmas": [ordenadora, jefe],
        "duena": UserFactory(areas=[m["area"]], permisos=[PLANEACION]),
    }


def _verificacion(client, url: str, mensaje: str) -> str:
    """The public page a phone opens with the scanned address (anyone: no session); the API
    answers the same code with `mensaje` (the page's heading has no final period)."""
    partes = urlsplit(url)
    assert f"{partes.scheme}://{partes.netloc}" == PUBLICA
    client.logout()
    r = client.get(partes.path)
    assert r.status_code == 200
    token = partes.path.rsplit("/", 1)[1]
    assert client.get(f"{API}{token}").json()["message"] == mensaje
    return html.unescape(r.content.decode())


def test_the_printed_codes_open_each_signatures_verification_and_show_its_annulment(
    client, firmado
):
    cdp, (ordenadora, jefe) = firmado["cdp"], firmado["firmas"]
    client.force_login(firmado["duena"])
    r = client.get(f"/presupuesto/cdp/{cdp.pk}/pdf")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/pdf"
    impreso = r.content

    leidos = codigos_qr(impreso, guardar_en=CAPTURAS, nombre="impreso_cdp_escaneado")
    assert leidos == [ordenadora.url_verificacion(), jefe.url_verificacion()]
    for url, firma in zip(leidos, (ordenadora, jefe), strict=True):
        texto = _verificacion(client, url, "Firma válida.")
        assert '<h1 id="titulo-estado">Firma válida</h1>' in texto
        assert "La firma fue anulada." not in texto
        for dato in (
            firma.firmante,
            firma.rol,
            f"<dt>Número de CDP</dt><dd>{cdp.numero}</dd>",
            "<dt>Objeto</dt><dd>Apoyo a la planeación institucional</dd>",
            "<dt>Estado</dt><dd>Expedido</dd>",
        ):
            assert dato in texto, dato
        assert "Radicado" not in texto  # no request originated this CDP: no blank row

    firmas.anular(firma=jefe, motivo="El proceso fue reiniciado.")
    texto = _verificacion(client, leidos[1], "La firma fue anulada.")
    assert '<h1 id="titulo-estado">La firma fue anulada.</h1>' in texto
    assert "Firma válida" not in texto
    assert cdp.numero in texto
    valida = _verificacion(client, leidos[0], "Firma válida.")
    assert '<h1 id="titulo-estado">Firma válida</h1>' in valida
