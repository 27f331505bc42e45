"""The request screen behind `Solicitud.enlace`: participants only, sensitive data hidden."""

from __future__ import annotations

import pytest

from apps.solicitudes import services
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db


@pytest.fixture
def solicitud(flujo):
    s = flujo.radicar(
        resumen="Certificado laboral para el banco",
        campos=[
            {"nombre": "dirigido_a", "etiqueta": "Dirigido a", "valor": "Banco Agrario"},
            {"nombre": "cedula", "etiqueta": "Cédula", "valor": "1032456789"},
        ],
    )
    services.comentar(solicitud=s, autor=flujo.solicitante, texto="<b>Gracias</b>")
    return s


def test_the_filer_sees_the_request_screen_without_sensitive_data(client, solicitud, flujo):
    client.force_login(flujo.solicitante)
    respuesta = client.get(solicitud.enlace)
    assert respuesta.status_code == 200
    html = respuesta.content.decode()
    assert solicitud.numero_radicado in html
    assert "Banco Agrario" in html
    assert "1032456789" not in html
    assert "&lt;b&gt;Gracias&lt;/b&gt;" in html  # people's text is escaped, never markup
    assert "Radicada" in html


def test_a_colleague_with_ver_todas_sees_it(client, solicitud):
    client.force_login(persona(permisos=["solicitudes.ver_todas"]))
    assert client.get(solicitud.enlace).status_code == 200


def test_an_outsider_gets_404_like_a_missing_request(client, solicitud):
    client.force_login(persona())
    assert client.get(solicitud.enlace).status_code == 404
    assert client.get("/solicitudes/999999").status_code == 404


def test_an_anonymous_visitor_is_sent_to_sign_in(client, solicitud):
    respuesta = client.get(solicitud.enlace)
    assert respuesta.status_code == 302
    assert respuesta["Location"].startswith("/cuentas/")
