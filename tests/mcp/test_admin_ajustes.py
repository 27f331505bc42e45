"""The assistant settings in the admin: grouped, in plain Spanish with the technical names in the
help texts, and lifetimes written in minutes, hours or days but stored in seconds."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from apps.mcp.models import AjustesAsistente
from tests.factories import UserFactory
from tests.mcp.test_admin import URL_AJUSTES, datos_de_ajustes

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _pagina(administra) -> str:
    AjustesAsistente.cargar()
    return html_lib.unescape(administra.get(URL_AJUSTES).content.decode())


def test_the_settings_are_grouped_and_said_in_plain_spanish(administra):
    html = _pagina(administra)
    grupos = re.findall(r"<h2[^>]*>([^<]+)</h2>", html)
    assert [
        g
        for g in grupos
        if g
        in {
            "Cambios que hace el asistente",
            "Quién puede usar el asistente",
            "Iniciar sesión desde el asistente",
            "Duración de las conexiones",
            "Límites de uso",
        }
    ] == [
        "Cambios que hace el asistente",
        "Quién puede usar el asistente",
        "Iniciar sesión desde el asistente",
        "Duración de las conexiones",
        "Límites de uso",
    ]
    for etiqueta in (
        "Permitir que el asistente haga cambios",
        "Tiempo para confirmar un cambio",
        "Las aplicaciones se dan de alta solas",
        "Aceptar aplicaciones que se identifican con una dirección web",
        "Cada cuánto el asistente renueva su acceso",
    ):
        assert re.search(rf">{re.escape(etiqueta)}:?</label>", html), etiqueta
    etiquetas = " ".join(re.findall(r"<label[^>]*>([^<]*)</label>", html))
    for jerga in ("RFC", "CIMD", "ESCRITURA_DESHABILITADA", "segundos", "OAuth"):
        assert jerga not in etiquetas, jerga
    # The technical names are still there, in the help texts, for whoever needs them.
    for tecnico in ("RFC 7591", "CIMD", "ESCRITURA_DESHABILITADA"):
        assert tecnico in html, tecnico


def test_lifetimes_are_shown_in_their_largest_exact_unit(administra):
    AjustesAsistente.cargar()
    AjustesAsistente.objects.update(confirmacion_segundos=300, oauth_acceso_segundos=7200)
    AjustesAsistente.olvidar()
    html = _pagina(administra)
    assert re.search(r'name="confirmacion_segundos_0" value="5"', html)
    # The label names the number; the unit's select says what it is.
    assert '<label class="required" for="id_confirmacion_segundos_0">' in html
    assert 'aria-label="Unidad"' in html
    unidad = r'<select name="{}"[^>]*>.*?<option value="{}" selected>'
    assert re.search(unidad.format("confirmacion_segundos_1", "minutos"), html, re.S)
    assert re.search(r'name="oauth_acceso_segundos_0" value="2"', html)
    assert re.search(unidad.format("oauth_acceso_segundos_1", "horas"), html, re.S)


def test_hours_and_minutes_are_stored_as_seconds(administra):
    AjustesAsistente.cargar()
    datos = datos_de_ajustes(
        confirmacion_segundos_0="1.5",
        confirmacion_segundos_1="minutos",
        oauth_acceso_segundos_0="8",
        oauth_acceso_segundos_1="horas",
    )
    assert administra.post(URL_AJUSTES, datos).status_code == 302
    ajustes = AjustesAsistente.cargar()
    assert (ajustes.confirmacion_segundos, ajustes.oauth_acceso_segundos) == (90, 28800)


@pytest.mark.parametrize(
    ("campo", "numero", "unidad", "mensaje"),
    [
        ("oauth_acceso_segundos", "2", "dias", "Escriba entre 5 minutos y 1 día."),
        ("oauth_acceso_segundos", "1", "minutos", "Escriba entre 5 minutos y 1 día."),
        ("confirmacion_segundos", "2", "horas", "Escriba entre 30 segundos y 1 hora."),
        ("confirmacion_segundos", "", "minutos", "Escriba un número y elija la unidad."),
    ],
)
def test_a_lifetime_out_of_range_is_refused_in_words(administra, campo, numero, unidad, mensaje):
    antes = AjustesAsistente.cargar()
    datos = datos_de_ajustes(**{f"{campo}_0": numero, f"{campo}_1": unidad})
    r = administra.post(URL_AJUSTES, datos)
    assert r.status_code == 200
    assert mensaje in html_lib.unescape(r.content.decode())
    despues = AjustesAsistente.cargar()
    assert getattr(despues, campo) == getattr(antes, campo)
