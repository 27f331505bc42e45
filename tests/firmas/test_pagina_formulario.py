"""The verification page for people: a form for a typed or pasted code, a trailing slash, when an
annulled signature was annulled (and why, when publishable), the time of the query, print."""

from __future__ import annotations

import html
import re

import pytest

from apps.firmas import services
from apps.firmas.models import Firma
from apps.firmas.selectors import hora_local
from tests.factories import UserFactory
from tests.firmas.factories import firmar

pytestmark = pytest.mark.django_db

FORMULARIO = "/presupuesto/verificar/"
LISTA = "/admin/firmas/firma/"


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def test_the_address_without_a_code_is_a_form_to_type_or_paste_it(client):
    r = client.get(FORMULARIO)
    assert r.status_code == 200
    texto = _texto(r)
    assert '<h1 id="titulo-formulario">Verificar una firma</h1>' in texto
    assert '<form method="get" action="/presupuesto/verificar/"' in texto
    assert 'name="codigo"' in texto


@pytest.mark.parametrize(
    "escrito",
    [
        "{token}",
        "  {token}  ",
        "{mayusculas}",
        "{sin_guiones}",
        "https://hub.entidad.gov.co/presupuesto/verificar/{token}",
        "Código de verificación: {token}.",
    ],
)
def test_a_typed_or_pasted_code_leads_to_its_verification(client, area_firmable, escrito):
    firma = firmar(area_firmable)
    token = str(firma.token)
    valor = escrito.format(
        token=token, mayusculas=token.upper(), sin_guiones=token.replace("-", "")
    )
    r = client.get(FORMULARIO, {"codigo": valor})
    assert r.status_code == 302
    destino = client.get(r["Location"])
    assert destino.status_code == 200
    assert "Firma válida" in _texto(destino)


def test_text_without_a_code_stays_on_the_form_with_a_clear_message(client):
    r = client.get(FORMULARIO, {"codigo": "no tengo el código"})
    assert r.status_code == 200
    texto = _texto(r)
    assert "No encontramos un código de verificación" in texto
    assert 'value="no tengo el código"' in texto
    assert 'aria-invalid="true"' in texto


def test_a_trailing_slash_on_the_code_works(client, area_firmable):
    firma = firmar(area_firmable)
    r = client.get(f"{FORMULARIO}{firma.token}/")
    assert r.status_code == 200
    assert "Firma válida" in _texto(r)


def test_the_page_says_when_it_was_consulted_and_prints_cleanly(client, area_firmable):
    r = client.get(f"{FORMULARIO}{firmar(area_firmable).token}")
    texto = _texto(r)
    consultado = r"Consultado el \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(hora de Colombia\)"
    assert re.search(consultado, texto)
    assert "@media print" in texto
    assert "data-imprimir" in texto and "/static/hub/imprimir.js" in texto


def test_an_annulled_signature_says_when_but_not_a_private_reason(client, area_firmable):
    firma = services.anular(firma=firmar(area_firmable), motivo="Nota interna 4711 del comité")
    r = client.get(f"{FORMULARIO}{firma.token}")
    texto = _texto(r)
    assert "La firma fue anulada." in texto
    cuando = Firma.objects.get(pk=firma.pk).anulada_en
    plano = re.sub(r"<[^>]+>", "", texto)
    assert f"se anuló el {hora_local(cuando)} (hora de Colombia)" in plano
    assert "4711" not in texto
    assert "Motivo:" not in texto


def test_a_reason_marked_publishable_is_shown(client, area_firmable):
    firma = services.anular(
        firma=firmar(area_firmable),
        motivo="El proceso fue rechazado y se reinició.",
        motivo_publico=True,
    )
    texto = _texto(client.get(f"{FORMULARIO}{firma.token}"))
    assert "Motivo:</strong> El proceso fue rechazado y se reinició." in texto
    # The API keeps its fields: the reason is for the page only.
    api = client.get(f"/presupuesto/api/v1/firmas/verificar/{firma.token}").json()["data"]
    assert "motivo_anulacion" not in api and "anulada_en" not in api


@pytest.mark.parametrize(
    "motivo",
    [
        "Lo pidió juan.perez@correo.com",
        "Firmó con la cédula 1.020.304.050",
        "Llamar al 310 555 1234",
    ],
)
def test_a_reason_with_personal_data_cannot_be_published(area_firmable, motivo):
    firma = firmar(area_firmable)
    with pytest.raises(services.FirmaInvalida, match="datos personales"):
        services.anular(firma=firma, motivo=motivo, motivo_publico=True)
    assert Firma.objects.get(pk=firma.pk).anulada is False  # nothing half-written
    services.anular(firma=firma, motivo=motivo)  # kept privately, it is fine
    assert Firma.objects.get(pk=firma.pk).motivo_publico is False


def test_the_admin_annuls_with_a_publishable_reason_when_asked(client, area_firmable):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    firma = firmar(area_firmable)
    datos = {
        "action": "anular",
        "_selected_action": [firma.pk],
        "confirmar": "si",
        "motivo": "Duplicado del documento 3",
        "publicar": "on",
    }
    r = client.post(LISTA, datos)
    assert r.status_code == 302
    firma.refresh_from_db()
    assert (firma.anulada, firma.motivo_publico) == (True, True)

    otra = firmar(area_firmable)
    r = client.post(
        LISTA, {**datos, "_selected_action": [otra.pk], "motivo": "Pidió anularla ana@x.co"}
    )
    assert r.status_code == 200
    assert "datos personales" in _texto(r)
    assert Firma.objects.get(pk=otra.pk).anulada is False
