"""POST /notificaciones/api/public/v1/contacto: answers, validation, storage."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest
from django.test import Client

from apps.notificaciones.models import MensajeContacto
from tests.notificaciones.ayudas import OMITIR, URL, cuerpo
from tests.notificaciones.factories import SitioContactoFactory
from tests.sobre import error_del_sobre

pytestmark = pytest.mark.django_db

REFERENCIA = re.compile(r"^CT-[0-9A-HJKMNP-TV-Z]{10}$")


def test_a_valid_message_is_201_with_a_reference_and_time_and_no_echo(enviar, portal):
    datos = cuerpo(mensaje="Texto privado que no debe volver en la respuesta.")
    r = enviar(datos)
    assert r.status_code == 201
    assert r["Content-Type"] == "application/json"
    respuesta = r.json()
    assert set(respuesta) == {"success", "data", "message"}
    assert respuesta["success"] is True
    assert respuesta["message"] == "Recibimos su mensaje. Le responderemos al correo indicado."
    assert set(respuesta["data"]) == {"referencia", "recibido_en"}
    assert REFERENCIA.match(respuesta["data"]["referencia"])
    recibido = datetime.fromisoformat(respuesta["data"]["recibido_en"])
    assert recibido.utcoffset() == timedelta(hours=-5)  # America/Bogota, with its offset
    texto = r.content.decode()
    for valor in (datos["mensaje"], datos["nombre"], datos["correo"], datos["asunto"]):
        assert valor not in texto


def test_the_message_is_stored_with_its_site_ip_and_user_agent(enviar, portal):
    r = enviar(cuerpo(), ip="198.51.100.7", HTTP_USER_AGENT="Mozilla/5.0 Prueba")
    guardado = MensajeContacto.objects.get()
    assert guardado.referencia == r.json()["data"]["referencia"]
    recibido = datetime.fromisoformat(r.json()["data"]["recibido_en"])
    assert guardado.recibido_en.replace(microsecond=0) == recibido
    assert guardado.sitio == portal
    assert (guardado.nombre, guardado.correo, guardado.asunto) == (
        "Ana María Pérez",
        "ana.perez@correo.com",
        "Horario de atención",
    )
    assert guardado.mensaje == "Quisiera saber el horario de atención de la sede principal."
    assert guardado.ip == "198.51.100.7"
    assert guardado.user_agent == "Mozilla/5.0 Prueba"
    assert (guardado.leido, guardado.atendido, guardado.atendido_en) == (False, False, None)


def test_each_message_gets_a_different_reference(enviar, portal):
    a = enviar(cuerpo()).json()["data"]["referencia"]
    b = enviar(cuerpo()).json()["data"]["referencia"]
    assert a != b


def test_a_very_long_user_agent_is_cut_not_refused(enviar, portal):
    r = enviar(cuerpo(), HTTP_USER_AGENT="A" * 2000)
    assert r.status_code == 201
    assert len(MensajeContacto.objects.get().user_agent) == 300


# Text that looks like SQL or HTML, in any script: nothing to clean.
LITERAL = {
    "nombre": "Renée O'Brien-Ñúñez 山田 🙂",
    "asunto": "'; DROP TABLE notificaciones_mensajecontacto; --",
    "mensaje": "<script>alert('x')</script>\n<b>negrita</b> & \"comillas\" 1=1 OR ''=''",
}


@pytest.mark.parametrize(
    ("enviado", "guardado"),
    [
        pytest.param(LITERAL, LITERAL, id="unicode_sql_and_html_looking_text_is_stored_verbatim"),
        pytest.param(
            {
                "nombre": "Ana\u200b Pérez\u202e",
                "asunto": "Consulta\u0000 urgente\ufeff",
                "mensaje": "Línea uno\u2066\nLínea dos\u0007 con texto \ud800suficiente.",
            },
            {
                "nombre": "Ana Pérez",
                "asunto": "Consulta urgente",
                "mensaje": "Línea uno\nLínea dos con texto suficiente.",
            },
            id="invisible_and_control_characters_are_removed_before_storing",
        ),
        pytest.param(
            {
                "nombre": "Ana\r\nPérez",
                "asunto": "Hola\nBcc: otro@ejemplo.com",
                "mensaje": "Primera línea\r\n\r\nSegunda   línea",
            },
            {
                "nombre": "Ana Pérez",
                "asunto": "Hola Bcc: otro@ejemplo.com",
                "mensaje": "Primera línea\r\n\r\nSegunda   línea",
            },
            id="line_breaks_in_name_and_subject_are_folded_but_kept_in_the_message",
        ),
    ],
)
def test_name_subject_and_message_are_stored_as_written_less_what_is_unsafe(
    enviar, portal, enviado, guardado
):
    assert enviar(cuerpo(**enviado)).status_code == 201
    fila = MensajeContacto.objects.get()
    assert (fila.nombre, fila.asunto, fila.mensaje) == (
        guardado["nombre"],
        guardado["asunto"],
        guardado["mensaje"],
    )


def test_surrounding_spaces_are_trimmed(enviar, portal):
    assert enviar(cuerpo(nombre="  Ana  ", correo=" ana@correo.com ")).status_code == 201
    guardado = MensajeContacto.objects.get()
    assert (guardado.nombre, guardado.correo) == ("Ana", "ana@correo.com")


@pytest.mark.parametrize(
    ("campo", "valor"),
    [
        ("nombre", "Al"),
        ("nombre", "N" * 120),
        ("correo", "a@b.co"),
        ("correo", "a" * 139 + "@correo.com"),  # 150 characters
        ("asunto", "Sí!"),
        ("asunto", "A" * 150),
        ("mensaje", "0123456789"),
        ("mensaje", "m" * 5000),
    ],
)
def test_values_at_the_length_bounds_are_accepted(enviar, portal, campo, valor):
    r = enviar(cuerpo(**{campo: valor}))
    assert r.status_code == 201
    assert getattr(MensajeContacto.objects.get(), campo) == valor


@pytest.mark.parametrize(
    ("campo", "valor"),
    [
        ("nombre", OMITIR),
        ("nombre", ""),
        ("nombre", "A"),
        ("nombre", "N" * 121),
        ("nombre", "\u200b\u200b\u200b"),
        ("nombre", None),
        ("correo", OMITIR),
        ("correo", "no-es-un-correo"),
        ("correo", "ana@"),
        ("correo", "ana@correo.com\nBcc: x@y.com"),
        ("correo", "a" * 140 + "@correo.com"),  # 151 characters
        ("asunto", OMITIR),
        ("asunto", "Sí"),
        ("asunto", "A" * 151),
        ("mensaje", OMITIR),
        ("mensaje", "Muy corto"),
        ("mensaje", "m" * 5001),
        ("mensaje", ["una", "lista"]),
        ("mensaje", {"un": "objeto"}),
        ("sitio", OMITIR),
        ("sitio", "desconocido"),
        ("sitio", "../../etc/passwd"),
        ("sitio", "PORTAL"),
        ("sitio", "s" * 41),
        ("sitio", {"codigo": "portal"}),
    ],
)
def test_each_bad_field_is_422_naming_only_that_field(enviar, portal, campo, valor):
    r = enviar(cuerpo(**{campo: valor}))
    datos = error_del_sobre(r, 422, "DATOS_INVALIDOS")
    assert list(datos["error"]["campos"]) == [campo]
    assert all(isinstance(m, str) and m for m in datos["error"]["campos"][campo])
    assert MensajeContacto.objects.count() == 0
    assert "X-RateLimit-Limit" not in r


def test_an_inactive_site_is_refused_like_an_unknown_one(enviar, portal):
    SitioContactoFactory(codigo="antiguo", activo=False)
    inactivo = error_del_sobre(enviar(cuerpo(sitio="antiguo")), 422, "DATOS_INVALIDOS")
    desconocido = error_del_sobre(enviar(cuerpo(sitio="no-existe")), 422, "DATOS_INVALIDOS")
    assert inactivo["error"]["campos"] == desconocido["error"]["campos"]
    assert inactivo["error"]["campos"] == {"sitio": ["Sitio no reconocido."]}


def test_an_empty_object_names_every_required_field(enviar, portal):
    datos = error_del_sobre(enviar({}), 422, "DATOS_INVALIDOS")
    assert set(datos["error"]["campos"]) == {"nombre", "correo", "asunto", "mensaje", "sitio"}


def test_an_unknown_field_is_422_naming_it(enviar, portal):
    datos = error_del_sobre(enviar(cuerpo(telefono="3001234567")), 422, "DATOS_INVALIDOS")
    assert datos["error"]["campos"] == {"telefono": ["Campo no permitido."]}
    assert MensajeContacto.objects.count() == 0


def test_many_or_huge_unknown_fields_are_named_briefly_never_echoed_whole(enviar, portal):
    """A hostile body must not get an answer larger than itself: the first 20 unknown names (in
    order), each cut to 100 characters, then how many more there were."""
    raros = {f"campo_{n:04d}": 1 for n in range(500)} | {"z" * 10_000: 1}
    r = enviar(cuerpo(**raros))
    campos = error_del_sobre(r, 422, "DATOS_INVALIDOS")["error"]["campos"]
    assert list(campos) == [f"campo_{n:04d}" for n in range(20)] + ["__all__"]
    assert campos["campo_0000"] == ["Campo no permitido."]
    assert campos["__all__"] == ["Y 481 campos no permitidos más."]
    assert len(r.content) < 2_000
    largo = enviar(cuerpo(**{"z" * 10_000: 1}))
    nombre = "z" * 99 + "…"
    assert error_del_sobre(largo, 422, "DATOS_INVALIDOS")["error"]["campos"] == {
        nombre: ["Campo no permitido."]
    }
    assert MensajeContacto.objects.count() == 0


def test_a_json_array_is_422(enviar, portal):
    datos = error_del_sobre(enviar([cuerpo()]), 422, "DATOS_INVALIDOS")
    assert list(datos["error"]["campos"]) == ["__all__"]


@pytest.mark.parametrize("valor", ["null", '"texto"', "12", "true"])
def test_a_json_value_that_is_not_an_object_is_422_saying_so_in_spanish(client, portal, valor):
    r = client.post(URL, valor, content_type="application/json")
    datos = error_del_sobre(r, 422, "DATOS_INVALIDOS")
    assert datos["error"]["campos"] == {"__all__": ["Se esperaba un objeto JSON."]}
    assert MensajeContacto.objects.count() == 0


@pytest.mark.parametrize("charset", ["latin-1", "cp1252", "utf-8"])
def test_the_body_is_read_as_utf8_whatever_charset_the_content_type_names(client, portal, charset):
    # generic(): Client.post would re-encode the body into the named charset.
    texto = json.dumps(cuerpo(nombre="Ana María Núñez"), ensure_ascii=False).encode("utf-8")
    r = client.generic("POST", URL, texto, content_type=f"application/json; charset={charset}")
    assert r.status_code == 201
    assert MensajeContacto.objects.get().nombre == "Ana María Núñez"


def test_a_body_that_is_not_utf8_is_400_json_invalido_even_if_its_charset_says_so(client, portal):
    texto = json.dumps(cuerpo(nombre="Ana María Núñez"), ensure_ascii=False).encode("latin-1")
    r = client.generic("POST", URL, texto, content_type="application/json; charset=latin-1")
    error_del_sobre(r, 400, "JSON_INVALIDO")
    assert MensajeContacto.objects.count() == 0


def test_malformed_json_is_400_json_invalido(client, portal):
    r = client.post(URL, '{"nombre": "Ana",', content_type="application/json")
    error_del_sobre(r, 400, "JSON_INVALIDO")
    assert MensajeContacto.objects.count() == 0


@pytest.mark.parametrize(
    ("contenido", "tipo"),
    [
        ("nombre=Ana&correo=ana%40correo.com", "application/x-www-form-urlencoded"),
        ("nombre=Ana", "text/plain"),
        ("<contacto/>", "application/xml"),
    ],
)
def test_a_body_that_is_not_json_is_415(client, portal, contenido, tipo):
    error_del_sobre(client.post(URL, contenido, content_type=tipo), 415, "TIPO_NO_SOPORTADO")
    assert MensajeContacto.objects.count() == 0


@pytest.mark.parametrize("tipo", ["text/json", "application/vnd.api+json", ""])
def test_a_json_body_under_another_content_type_is_415(client, portal, tipo):
    r = client.generic("POST", URL, json.dumps(cuerpo()), content_type=tipo)
    error_del_sobre(r, 415, "TIPO_NO_SOPORTADO")
    assert MensajeContacto.objects.count() == 0


@pytest.mark.parametrize("accept", ["text/html", "image/png, text/*", "basura;;"])
def test_an_accept_that_excludes_json_is_406_no_aceptable_and_counts_nothing(
    enviar, portal, accept
):
    error_del_sobre(enviar(cuerpo(), HTTP_ACCEPT=accept), 406, "NO_ACEPTABLE")
    assert MensajeContacto.objects.count() == 0
    assert enviar(cuerpo())["X-RateLimit-Remaining"] == "2"


@pytest.mark.parametrize(
    "accept", ["application/json", "application/*", "*/*", "text/html, application/json;q=0.1"]
)
def test_an_accept_that_admits_json_is_served(enviar, portal, accept):
    r = enviar(cuerpo(), HTTP_ACCEPT=accept)
    assert r.status_code == 201
    assert r["Content-Type"] == "application/json"


@pytest.mark.parametrize("metodo", ["get", "put", "patch", "delete", "head", "options"])
def test_any_method_but_post_is_405_with_allow_post(client, portal, metodo):
    r = getattr(client, metodo)(URL)
    assert r.status_code == 405
    assert r["Allow"] == "POST"
    if metodo != "head":
        error_del_sobre(r, 405, "METODO_NO_PERMITIDO")


def test_a_five_megabyte_body_is_413(client, portal):
    relleno = "x" * (5 * 1024 * 1024)
    r = client.post(URL, json.dumps(cuerpo(mensaje=relleno)), content_type="application/json")
    error_del_sobre(r, 413, "PAYLOAD_DEMASIADO_GRANDE")
    assert MensajeContacto.objects.count() == 0


def test_a_cross_site_form_needs_no_csrf_token(portal):
    cliente = Client(enforce_csrf_checks=True)
    r = cliente.post(URL, json.dumps(cuerpo()), content_type="application/json")
    assert r.status_code == 201


def test_the_cost_of_a_message_does_not_grow_with_stored_messages(
    enviar, portal, django_assert_num_queries
):
    enviar(cuerpo())
    with django_assert_num_queries(4):  # site, savepoint, insert, release
        assert enviar(cuerpo(), ip="198.51.100.1").status_code == 201
    for i in range(5):
        enviar(cuerpo(), ip=f"198.51.100.{10 + i}")
    with django_assert_num_queries(4):
        assert enviar(cuerpo(), ip="198.51.100.2").status_code == 201
