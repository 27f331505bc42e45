from __future__ import annotations

import json

import pytest

from tests.sobre import error_del_sobre

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hub.urls_prueba")]


@pytest.mark.parametrize(
    "ruta",
    [
        "/auth/api/v1/no-hay",
        "/presupuesto/api/v1/firmas",
        "/mcp/api/otra",
        "/notificaciones/api/public/v2/contacto",
        "/api/v1/nada",
        "/inventado/api/v1/x",
    ],
)
def test_unknown_api_path_answers_404_envelope_not_html(client, ruta):
    cuerpo = error_del_sobre(client.get(ruta), 404, "NO_ENCONTRADO")
    assert "campos" not in cuerpo["error"]


def test_unknown_page_outside_api_is_not_an_envelope(client):
    r = client.get("/no-existe-esta-pagina/")
    assert r.status_code == 404
    assert r["Content-Type"].startswith("text/html")


def test_http404_raised_in_an_api_view_is_the_envelope(client):
    error_del_sobre(client.get("/prueba/api/v1/no-existe"), 404, "NO_ENCONTRADO")


def test_unexpected_exception_is_500_error_interno_without_leaking(client, caplog):
    client.raise_request_exception = False
    r = client.get("/prueba/api/v1/falla")
    cuerpo = error_del_sobre(r, 500, "ERROR_INTERNO")
    assert "secreto-interno" not in r.content.decode()
    assert "secreto-interno" not in cuerpo["message"]


def test_amounts_are_json_numbers_with_exact_digits(client):
    r = client.get("/prueba/api/v1/montos")
    assert r.status_code == 200
    texto = r.content.decode()
    assert '"valor":12345678901234567.89' in texto
    assert '"saldo":0.10' in texto
    cuerpo = r.json()
    assert cuerpo == {
        "success": True,
        "data": {"valor": 12345678901234567.89, "saldo": 0.10},
        "message": None,
    }


def test_wrong_method_is_405_with_allow(client):
    cuerpo = error_del_sobre(client.delete("/prueba/api/v1/montos"), 405, "METODO_NO_PERMITIDO")
    assert cuerpo["error"]["code"] == "METODO_NO_PERMITIDO"
    assert client.delete("/prueba/api/v1/montos")["Allow"] == "GET, HEAD"


def test_drf_405_is_the_envelope_with_allow(client):
    r = client.get("/prueba/api/v1/eco")
    error_del_sobre(r, 405, "METODO_NO_PERMITIDO")
    assert "POST" in r["Allow"]


def test_validation_error_is_422_with_campos_per_field(client):
    r = client.post(
        "/prueba/api/v1/eco", {"nombre": "demasiado largo", "edad": -1}, "application/json"
    )
    cuerpo = error_del_sobre(r, 422, "DATOS_INVALIDOS")
    assert set(cuerpo["error"]["campos"]) == {"nombre", "edad"}
    assert all(isinstance(m, str) for ms in cuerpo["error"]["campos"].values() for m in ms)


def test_unknown_field_is_422_naming_it(client):
    r = client.post(
        "/prueba/api/v1/eco", {"nombre": "ana", "edad": 3, "rol": "admin"}, "application/json"
    )
    cuerpo = error_del_sobre(r, 422, "DATOS_INVALIDOS")
    assert cuerpo["error"]["campos"] == {"rol": ["Campo no permitido."]}


def test_a_json_array_instead_of_an_object_is_422(client):
    r = client.post("/prueba/api/v1/eco", "[1, 2]", "application/json")
    error_del_sobre(r, 422, "DATOS_INVALIDOS")


def test_malformed_json_is_400_json_invalido(client):
    error_del_sobre(
        client.post("/prueba/api/v1/eco", "{no es json", "application/json"), 400, "JSON_INVALIDO"
    )


def test_non_json_body_is_415(client):
    r = client.post("/prueba/api/v1/eco", "nombre=a", "text/plain")
    error_del_sobre(r, 415, "TIPO_NO_SOPORTADO")


def test_body_over_the_limit_is_413_before_reading_it(client, settings):
    cuerpo = json.dumps({"nombre": "x" * (settings.HUB_MAX_CUERPO + 10)})
    error_del_sobre(
        client.post("/prueba/api/v1/eco", cuerpo, "application/json"),
        413,
        "PAYLOAD_DEMASIADO_GRANDE",
    )


def test_five_megabytes_to_any_api_path_is_413(client):
    cuerpo = b"{" + b" " * (5 * 1024 * 1024) + b"}"
    error_del_sobre(
        client.generic("POST", "/mcp/api/mcp", cuerpo, content_type="application/json"),
        413,
        "PAYLOAD_DEMASIADO_GRANDE",
    )


def test_unicode_sql_and_markup_in_fields_are_validated_not_executed(client):
    r = client.post(
        "/prueba/api/v1/eco",
        {"nombre": "ñ'; -", "edad": "1; DROP TABLE x"},
        "application/json",
    )
    cuerpo = error_del_sobre(r, 422, "DATOS_INVALIDOS")
    assert list(cuerpo["error"]["campos"]) == ["edad"]


def test_a_real_client_without_csrf_token_gets_the_envelope_not_the_csrf_page():
    from django.test import Client

    estricto = Client(enforce_csrf_checks=True)
    r = estricto.post("/auth/api/v1/ping")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"


def test_pages_with_a_session_still_require_the_csrf_token():
    from django.test import Client

    estricto = Client(enforce_csrf_checks=True)
    r = estricto.post("/cuentas/login/", {"username": "x", "password": "y"})
    assert r.status_code == 403


@pytest.mark.parametrize(
    ("cuerpo", "campo"),
    [
        ({"nombre": 123, "edad": 1}, "nombre"),
        ({"nombre": "ana", "edad": "1"}, "edad"),
        ({"nombre": "ana", "edad": True}, "edad"),
        ({"nombre": "ana", "edad": 1.5}, "edad"),
        ({"nombre": ["a"], "edad": 1}, "nombre"),
    ],
)
def test_a_value_of_the_wrong_json_type_is_422_even_if_it_could_be_coerced(client, cuerpo, campo):
    r = client.post("/prueba/api/v1/eco", cuerpo, "application/json")
    assert error_del_sobre(r, 422, "DATOS_INVALIDOS")["error"]["campos"] == {
        campo: [r.json()["error"]["campos"][campo][0]]
    }
