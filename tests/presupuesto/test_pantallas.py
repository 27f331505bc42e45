"""The CDP, RP and PAA line screens behind the tools' links: the tool's people see them, read-only;
everyone else gets the same 404 as for a document that does not exist."""

from __future__ import annotations

import html

import pytest

from apps.firmas import services as firmas
from apps.presupuesto.models import Cdp
from apps.solicitudes import services as solicitudes
from tests.factories import AreaFactory, GroupFactory, UserFactory
from tests.presupuesto.mundos import cdp_de_oap
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

PLANEACION = "presupuesto.planeacion.consultar"
REPORTES = "presupuesto.reportes.consultar"


@pytest.fixture
def mundo():
    """A CDP with its PAA line, an RP, a movement, signatures; people of every kind."""
    m = cdp_de_oap(
        objeto="Apoyo a la planeación institucional",
        reduccion="Ajuste por menor valor",
        campos_linea={"objeto": "Consultoría para el plan de acción"},
        campos_cdp={"dependencia": "Grupo de proyectos"},
        campos_rp={"documento_beneficiario": "52.123.456"},
    )
    area, otra, cdp, rp, movimiento = m["area"], m["otra"], m["cdp"], m["rp"], m["movimiento"]
    firma = firmas.firmar(documento=cdp, firmante="Camila Rojas Díaz", rol="Ordenadora del gasto")
    firmas.firmar(documento=movimiento, firmante="Ricardo Mejía Soto", rol="Profesional")
    anulada = firmas.firmar(documento=rp, firmante="Jorge Salazar", rol="Ordenador del gasto")
    firmas.anular(firma=anulada, motivo="Proceso reiniciado")
    return {
        "cdp": Cdp.objects.get(pk=cdp.pk),
        "rp": rp,
        "linea": m["linea"],
        "firma": firma,
        "duena": UserFactory(areas=[area], permisos=[PLANEACION]),
        "todas": UserFactory(areas=[otra], permisos=[PLANEACION, "presupuesto.areas.todas"]),
        "ajena": UserFactory(areas=[otra], permisos=[PLANEACION]),
        "sin_permiso": UserFactory(areas=[area], permisos=["solicitudes.radicar"]),
        "reportes": UserFactory(areas=[area], permisos=[REPORTES]),
        "inactiva": UserFactory(areas=[area], permisos=[PLANEACION], is_active=False),
    }


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def _como(client, usuario):
    client.force_login(usuario)
    return client


def test_the_cdp_link_is_its_screen_never_the_admin(mundo):
    cdp = mundo["cdp"]
    assert cdp.enlace == f"/presupuesto/cdp/{cdp.pk}"
    assert mundo["rp"].enlace == f"/presupuesto/rp/{mundo['rp'].pk}"
    assert mundo["linea"].enlace == f"/presupuesto/paa/{mundo['linea'].pk}"


def test_the_owner_area_sees_the_whole_cdp(client, mundo):
    cdp = mundo["cdp"]
    r = _como(client, mundo["duena"]).get(cdp.enlace)
    assert r.status_code == 200
    texto = _texto(r)
    for dato in (
        cdp.numero,
        "2326",
        "Expedido",
        cdp.estado_descripcion,
        "Oficina Asesora de Planeación",
        "Grupo de proyectos",
        "Apoyo a la planeación institucional",
        "$ 900,00",  # initial value
        "$ 800,00",  # current value after the reduction
        "$ 400,00",  # committed in the RP
        "Ajuste por menor valor",
        "Reducción",
        "Camila Rojas Díaz",
        "Ordenadora del gasto",
        "Ricardo Mejía Soto",  # the movement's signature
    ):
        assert dato in texto, dato
    assert f'href="{mundo["rp"].enlace}"' in texto  # its RPs
    assert f'href="{mundo["linea"].enlace}"' in texto  # its PAA line
    assert f'href="{mundo["firma"].ruta_verificacion()}"' in texto  # verification link
    assert "/admin/" not in texto
    assert "<form" not in texto.split("</header>", 1)[1]  # read-only: no form but sign-out


def test_the_rp_shows_its_origin_cdp_values_and_an_annulled_signature(client, mundo):
    rp = mundo["rp"]
    r = _como(client, mundo["duena"]).get(rp.enlace)
    assert r.status_code == 200
    texto = _texto(r)
    for dato in (rp.numero, "7781", "María Fernanda Ruiz", "$ 400,00", "Jorge Salazar", "Anulada"):
        assert dato in texto, dato
    assert f'href="{mundo["cdp"].enlace}"' in texto
    assert "52.123.456" not in texto  # the beneficiary's document is never shown


def test_the_paa_line_lists_the_cdps_it_backs(client, mundo):
    r = _como(client, mundo["duena"]).get(mundo["linea"].enlace)
    assert r.status_code == 200
    texto = _texto(r)
    assert "Consultoría para el plan de acción" in texto
    assert "$ 900,00" in texto
    assert f'href="{mundo["cdp"].enlace}"' in texto


def test_a_colleague_with_every_area_sees_the_documents(client, mundo):
    _como(client, mundo["todas"])
    for documento in (mundo["cdp"], mundo["rp"], mundo["linea"]):
        assert client.get(documento.enlace).status_code == 200


@pytest.mark.parametrize("quien", ["ajena", "sin_permiso"])
def test_someone_who_may_not_see_it_gets_the_same_404_as_for_a_missing_one(client, mundo, quien):
    _como(client, mundo[quien])
    for documento in (mundo["cdp"], mundo["rp"], mundo["linea"]):
        r = client.get(documento.enlace)
        falta = client.get(documento.enlace.rsplit("/", 1)[0] + "/999999")
        assert r.status_code == falta.status_code == 404
        assert "Página no encontrada" in _texto(r)
        assert documento.objeto not in _texto(r)


def test_an_inactive_person_is_not_signed_in(client, mundo):
    client.force_login(mundo["inactiva"])
    r = client.get(mundo["cdp"].enlace)
    assert r.status_code == 302
    assert r["Location"].startswith("/cuentas/login/")


def test_the_paa_line_follows_resumen_ejecutivo_and_the_cdp_estado_cdp(client, mundo):
    # presupuesto.reportes.consultar opens PAA lines (resumen_ejecutivo) but not CDPs.
    _como(client, mundo["reportes"])
    assert client.get(mundo["linea"].enlace).status_code == 200
    assert client.get(mundo["cdp"].enlace).status_code == 404


def test_without_a_session_the_screens_ask_to_sign_in(client, mundo):
    r = client.get(mundo["cdp"].enlace)
    assert r.status_code == 302
    assert r["Location"] == f"/cuentas/login/?next={mundo['cdp'].enlace}"


def test_the_screens_only_read(client, mundo):
    _como(client, mundo["duena"])
    for documento in (mundo["cdp"], mundo["rp"], mundo["linea"]):
        assert client.post(documento.enlace).status_code == 405


def test_a_request_page_links_the_budget_documents_it_originated(client, mundo):
    tipo = tipo_con_etapas(GroupFactory(name="Revisión de CDP"), codigo="cdp-sol")
    filer = persona(permisos=["solicitudes.radicar", PLANEACION], areas=[mundo["cdp"].area])
    solicitud = solicitudes.radicar(tipo=tipo, solicitante=filer, resumen="Solicitud de CDP")
    Cdp.objects.filter(pk=mundo["cdp"].pk).update(numero_radicado=solicitud.numero_radicado)
    r = _como(client, filer).get(solicitud.enlace)
    assert r.status_code == 200
    assert f'href="{mundo["cdp"].enlace}"' in r.content.decode()
    assert "Documentos presupuestales" in r.content.decode()
    # The CDP screen links back to the request.
    assert f'href="{solicitud.enlace}"' in client.get(mundo["cdp"].enlace).content.decode()

    # Someone who sees the request but not the CDP's area gets no budget link.
    colega = persona(permisos=["solicitudes.ver_todas", PLANEACION], areas=[AreaFactory()])
    r = _como(client, colega).get(solicitud.enlace)
    assert r.status_code == 200
    assert mundo["cdp"].enlace not in r.content.decode()
    assert "Documentos presupuestales" not in r.content.decode()
