"""The verification page of each budget document type shows its summary, never a blank."""

from __future__ import annotations

import html
import re

import pytest

from apps.firmas import services as firmas
from apps.presupuesto import services
from tests.presupuesto.factories import cdp_expedido, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db

PAGINA = "/presupuesto/verificar/"
FILA = re.compile(r"<dt>(.*?)</dt><dd>(.*?)</dd>", re.DOTALL)


@pytest.fixture
def docs():
    """One document of each type, none originated by a request (no radicado)."""
    proyecto, area = celda("5000")
    lin = linea(proyecto, area, "900", objeto="Servicios de apoyo a la planeación")
    cdp = cdp_expedido(proyecto, area, "900", objeto="Apoyo a la planeación")
    rp = rp_expedido(cdp, "400")
    mov_cdp = services.registrar_movimiento_cdp(
        cdp=cdp, tipo="reduccion", valor="100", descripcion="Menor valor"
    )
    mov_rp = services.registrar_movimiento_rp(
        rp=rp, tipo="obligacion", valor="50", descripcion="Pago 1"
    )
    objetos = {"paa": lin, "cdp": cdp, "rp": rp, "mov_cdp": mov_cdp, "mov_rp": mov_rp}
    return {clave: type(o).objects.get(pk=o.pk) for clave, o in objetos.items()}


def _filas_documento(client, documento) -> list[tuple[str, str]]:
    """The rows under "Documento firmado" of the page the document's signature QR opens."""
    firma = firmas.firmar(documento=documento, firmante="Camila Rojas Díaz", rol="Ordenadora")
    r = client.get(f"{PAGINA}{firma.token}")
    assert r.status_code == 200
    seccion = r.content.decode().split("<h2>Documento firmado</h2>", 1)[1].split("</dl>", 1)[0]
    filas = [(html.unescape(e), html.unescape(v)) for e, v in FILA.findall(seccion)]
    assert filas[-1][0] == "Firmas vigentes del documento"  # the count, not the summary
    return filas[:-1]


def _esperado(documento, *filas) -> list[tuple[str, str]]:
    return [*filas, ("Estado", documento.get_estado_display())]


def test_a_cdp_without_radicado_shows_its_number_object_and_state(client, docs):
    cdp = docs["cdp"]
    assert _filas_documento(client, cdp) == _esperado(
        cdp,
        ("Tipo de documento", "Certificado de Disponibilidad Presupuestal (CDP)"),
        ("Número de CDP", cdp.numero),
        ("Objeto", "Apoyo a la planeación"),
    )


def test_a_cdp_with_radicado_shows_it(client, docs):
    cdp = docs["cdp"]
    cdp.numero_radicado = "SOL-2026-000010"
    cdp.save()
    filas = _filas_documento(client, cdp)
    assert filas[2] == ("Radicado", "SOL-2026-000010")
    assert "—" not in repr(filas)


def test_an_rp_without_radicado_shows_its_number_and_its_cdp(client, docs):
    rp = docs["rp"]
    assert _filas_documento(client, rp) == _esperado(
        rp,
        ("Tipo de documento", "Registro Presupuestal (RP)"),
        ("Número de RP", rp.numero),
        ("Número de CDP", rp.cdp.numero),
        ("Objeto", rp.objeto),
    )


def test_a_paa_line_shows_its_line_object_and_state_in_words(client, docs):
    paa = docs["paa"]
    paa.estado = "en_ejecucion"
    paa.save()
    assert _filas_documento(client, paa) == [
        ("Tipo de documento", "Línea del Plan Anual de Adquisiciones (PAA)"),
        ("Línea del PAA", str(paa.numero)),
        ("Objeto", "Servicios de apoyo a la planeación"),
        ("Estado", "En ejecución"),
    ]


@pytest.mark.parametrize(
    "clave, tipo, numeros",
    [
        ("mov_cdp", "Movimiento de CDP: reducción", ("numero_cdp",)),
        ("mov_rp", "Movimiento de RP: obligación", ("numero_rp", "numero_cdp")),
    ],
)
def test_a_movement_shows_its_type_its_document_and_its_own_state(
    client, docs, clave, tipo, numeros
):
    movimiento = docs[clave]
    etiquetas = {"numero_cdp": "Número de CDP", "numero_rp": "Número de RP"}
    resumen = movimiento.resumen_firma()
    assert _filas_documento(client, movimiento) == _esperado(
        movimiento,
        ("Tipo de documento", tipo),
        *[(etiquetas[n], resumen[n]) for n in numeros],
        ("Objeto", movimiento.documento.objeto),
    )
