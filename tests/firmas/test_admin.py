from __future__ import annotations

import io
from html.parser import HTMLParser

import pytest
import segno
from defusedxml import ElementTree
from PIL import Image

from apps.firmas.models import Firma
from tests.factories import UserFactory
from tests.firmas.factories import firma_anulada, firmar

pytestmark = pytest.mark.django_db

LISTA = "/admin/firmas/firma/"


def _matriz_png(contenido: bytes, escala: int = 10, borde: int = 4) -> list[list[bool]]:
    """Dark modules read from the centre of each module of the PNG."""
    imagen = Image.open(io.BytesIO(contenido)).convert("L")
    lado = imagen.width // escala - 2 * borde
    return [
        [
            imagen.getpixel(
                ((borde + x) * escala + escala // 2, (borde + y) * escala + escala // 2)
            )
            < 128
            for x in range(lado)
        ]
        for y in range(lado)
    ]


def test_the_png_qr_encodes_the_public_verification_address(admin_client, area_firmable, settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.gov.co"
    firma = firmar(area_firmable)
    r = admin_client.get(f"{LISTA}{firma.pk}/qr.png")
    assert r.status_code == 200
    assert r["Content-Type"] == "image/png"
    assert r["Content-Disposition"] == f'inline; filename="firma-{firma.token}.png"'
    imagen = Image.open(io.BytesIO(r.content))
    imagen.verify()
    assert imagen.format == "PNG"
    esperado = segno.make(
        f"https://hub.entidad.gov.co/presupuesto/verificar/{firma.token}", error="q"
    )
    assert _matriz_png(r.content) == [[bool(m) for m in fila] for fila in esperado.matrix]


def test_the_svg_qr_is_a_valid_svg_document(admin_client, area_firmable):
    firma = firmar(area_firmable)
    r = admin_client.get(f"{LISTA}{firma.pk}/qr.svg")
    assert r.status_code == 200
    assert r["Content-Type"] == "image/svg+xml"
    assert r["Content-Disposition"] == f'inline; filename="firma-{firma.token}.svg"'
    raiz = ElementTree.fromstring(r.content)
    assert raiz.tag == "{http://www.w3.org/2000/svg}svg"
    assert int(float(raiz.get("width"))) > 100
    assert b"<path" in r.content


def test_qr_downloads_are_for_staff_only(client, area_firmable):
    firma = firmar(area_firmable)
    r = client.get(f"{LISTA}{firma.pk}/qr.png")
    assert r.status_code == 302 and "/admin/login/" in r["Location"]
    client.force_login(UserFactory(is_staff=False))
    assert client.get(f"{LISTA}{firma.pk}/qr.svg").status_code == 302
    client.force_login(UserFactory(is_staff=True))
    assert client.get(f"{LISTA}{firma.pk}/qr.svg").status_code == 403


def test_staff_with_view_permission_may_download(client, area_firmable):
    firma = firmar(area_firmable)
    client.force_login(UserFactory(is_staff=True, permisos=["firmas.view_firma"]))
    assert client.get(f"{LISTA}{firma.pk}/qr.png").status_code == 200


def test_an_unknown_signature_qr_is_404(admin_client):
    assert admin_client.get(f"{LISTA}999999/qr.png").status_code == 404


class _Filas(HTMLParser):
    """The rows of the admin's result list: each cell's text by its column (`field-<name>`)."""

    def __init__(self):
        super().__init__()
        self.filas: list[dict[str, str]] = []
        self._lista = self._cuerpo = False
        self._columna: str | None = None

    def handle_starttag(self, tag, attrs):
        atributos = dict(attrs)
        if tag == "table":
            self._lista = atributos.get("id") == "result_list"
        elif tag == "tbody":
            self._cuerpo = self._lista
        elif tag == "tr" and self._cuerpo:
            self.filas.append({})
        elif tag in ("td", "th") and self._cuerpo:
            clases = (atributos.get("class") or "").split()
            campos = [c.removeprefix("field-") for c in clases if c.startswith("field-")]
            self._columna = campos[0] if campos else None
            if self._columna:
                self.filas[-1][self._columna] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._columna = None
        elif tag in ("tbody", "table"):
            self._lista = self._cuerpo = False

    def handle_data(self, data):
        if self._columna:
            self.filas[-1][self._columna] += data


def _filas(html: str) -> dict[str, dict[str, str]]:
    """The list's rows by their short token."""
    lector = _Filas()
    lector.feed(html)
    return {fila["token_corto"].strip(): fila for fila in lector.filas}


def test_the_list_shows_short_token_type_and_qr_links(
    admin_client, area_firmable, documento_calidad_firmable
):
    firma = firmar(area_firmable)
    otra = firmar(documento_calidad_firmable, firmante="Persona del movimiento")
    r = admin_client.get(LISTA)
    assert r.status_code == 200
    filas = _filas(r.content.decode())
    assert set(filas) == {str(firma.token)[:8], str(otra.token)[:8]}
    de_cdp, de_movimiento = filas[str(firma.token)[:8]], filas[str(otra.token)[:8]]
    # The document type is the signed model's name: here an area and a quality document.
    assert (de_cdp["tipo_documento"], de_movimiento["tipo_documento"]) == ("Área", "Documento")
    assert (de_cdp["firmante_corto"], de_movimiento["firmante_corto"]) == (
        "María Fernanda López Rincón",
        "Persona del movimiento",
    )
    # The document by its name or number ("CDP-2026-00001"), not "id del documento: 1".
    assert de_cdp["documento_visible"] == str(area_firmable)
    assert de_movimiento["documento_visible"] == str(documento_calidad_firmable)
    assert (de_cdp["estado"], de_movimiento["estado"]) == ("Vigente", "Vigente")
    assert de_cdp["enlaces_qr"] == "SVG · PNG"
    assert f"{LISTA}{firma.pk}/qr.svg" in r.content.decode()


def test_the_list_filters_by_document_type_and_annulment(
    admin_client, area_firmable, documento_calidad_firmable
):
    firmar(area_firmable, firmante="Firmante del CDP")
    firma_anulada(documento_calidad_firmable, firmante="Firmante anulado")
    from django.contrib.contenttypes.models import ContentType

    tipo = ContentType.objects.get_for_model(area_firmable)
    texto = admin_client.get(LISTA, {"tipo": tipo.pk}).content.decode()
    assert "Firmante del CDP" in texto and "Firmante anulado" not in texto
    texto = admin_client.get(LISTA, {"anulada__exact": "1"}).content.decode()
    assert "Firmante anulado" in texto and "Firmante del CDP" not in texto


@pytest.mark.parametrize("forma", ["completo", "prefijo", "nombre"])
def test_the_list_searches_by_token_or_signer(admin_client, area_firmable, forma):
    firma = firmar(area_firmable, firmante="Buscada Persona")
    firmar(area_firmable, firmante="Otra Persona")
    termino = {
        "completo": str(firma.token),
        "prefijo": str(firma.token)[:8],
        "nombre": "buscada",
    }[forma]
    texto = admin_client.get(LISTA, {"q": termino}).content.decode()
    assert "Buscada Persona" in texto and "Otra Persona" not in texto


def test_the_change_page_is_read_only_and_shows_the_qr(admin_client, area_firmable):
    firma = firmar(area_firmable)
    r = admin_client.get(f"{LISTA}{firma.pk}/change/")
    assert r.status_code == 200
    texto = r.content.decode()
    assert 'name="firmante"' not in texto and 'name="_save"' not in texto
    assert f'src="{LISTA}{firma.pk}/qr.svg"' in texto
    assert f"/presupuesto/verificar/{firma.token}" in texto
    r = admin_client.post(f"{LISTA}{firma.pk}/change/", {"firmante": "Otro"})
    assert r.status_code == 403
    firma.refresh_from_db()
    assert firma.firmante == "María Fernanda López Rincón"


def test_signatures_cannot_be_added_or_deleted_in_the_admin(admin_client, area_firmable):
    firma = firmar(area_firmable)
    assert admin_client.get(f"{LISTA}add/").status_code == 403
    assert admin_client.post(f"{LISTA}{firma.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Firma.objects.filter(pk=firma.pk).exists()


def test_the_annul_action_asks_for_a_reason_first(admin_client, area_firmable):
    firma = firmar(area_firmable)
    r = admin_client.post(LISTA, {"action": "anular", "_selected_action": [firma.pk]})
    assert r.status_code == 200
    assert "Motivo de la anulación" in r.content.decode()
    firma.refresh_from_db()
    assert firma.anulada is False
    r = admin_client.post(
        LISTA, {"action": "anular", "_selected_action": [firma.pk], "confirmar": "si", "motivo": ""}
    )
    assert r.status_code == 200
    firma.refresh_from_db()
    assert firma.anulada is False


def test_the_annul_action_annuls_with_the_given_reason(admin_client, area_firmable):
    a, b = firmar(area_firmable), firmar(area_firmable, firmante="Otra")
    r = admin_client.post(
        LISTA,
        {
            "action": "anular",
            "_selected_action": [a.pk, b.pk],
            "confirmar": "si",
            "motivo": "Se rechazó el CDP y se reinició el trámite.",
        },
        follow=True,
    )
    assert r.status_code == 200
    assert "2 firma(s) anulada(s)." in r.content.decode()
    for firma in (a, b):
        firma.refresh_from_db()
        assert firma.anulada
        assert firma.motivo_anulacion == "Se rechazó el CDP y se reinició el trámite."


def test_staff_without_change_permission_has_no_annul_action(client, area_firmable):
    firma = firmar(area_firmable)
    client.force_login(UserFactory(is_staff=True, permisos=["firmas.view_firma"]))
    r = client.get(LISTA)
    assert r.status_code == 200
    assert 'value="anular"' not in r.content.decode()
    client.post(
        LISTA,
        {"action": "anular", "_selected_action": [firma.pk], "confirmar": "si", "motivo": "x"},
    )
    firma.refresh_from_db()
    assert firma.anulada is False


def test_the_list_costs_the_same_queries_whatever_its_rows(
    admin_client, area_firmable, documento_calidad_firmable
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    firmar(area_firmable)
    firmar(documento_calidad_firmable)
    admin_client.get(LISTA)  # sessions and content types warm
    with CaptureQueriesContext(connection) as pocas:
        assert admin_client.get(LISTA).status_code == 200
    for _ in range(3):
        firmar(area_firmable)
        firmar(documento_calidad_firmable)
    with CaptureQueriesContext(connection) as muchas:
        r = admin_client.get(LISTA)
    # Each row's document comes from one query per document type, never one per row.
    assert len(_filas(r.content.decode())) == 8
    assert len(muchas) == len(pocas)
