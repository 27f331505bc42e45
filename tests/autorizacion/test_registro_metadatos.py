"""RFC 7591 client metadata the registration endpoint reads: each wrong shape is a clear 400 in
Spanish (never a 500, never the library's or the model's internal names)."""

from __future__ import annotations

import json

import pytest

from apps.autorizacion.models import Aplicacion
from apps.autorizacion.vistas import MAX_CUERPO_REGISTRO
from tests.autorizacion.factories import REDIRECCION
from tests.autorizacion.flujo import registrar

pytestmark = pytest.mark.django_db

# What only the library or the model would say: English, DOT's grant constants, the model's
# field name for client_name.
INTERNOS = ("must", "Unsupported", "authorization-code", "URI validation", "Error")


def _enviar(client, cuerpo: str):
    return client.post("/oauth/register", cuerpo, content_type="application/json")


def _rechazo(r, error: str = "invalid_client_metadata") -> str:
    """The refusal's description, once its status, code and headers are checked."""
    assert r.status_code == 400, r.content
    datos = r.json()
    assert datos["error"] == error and r["Cache-Control"] == "no-store"
    descripcion = datos["error_description"]
    assert not any(interno in descripcion for interno in INTERNOS), descripcion
    assert not descripcion.startswith("name") and "; name" not in descripcion, descripcion
    assert not Aplicacion.objects.exists()
    return descripcion


@pytest.mark.parametrize("cuerpo", ["[]", '"texto"', "3", "null", "true", '[{"a": 1}]'])
def test_a_json_body_that_is_not_an_object_is_a_metadata_error_in_spanish(client, cuerpo):
    assert "objeto JSON" in _rechazo(_enviar(client, cuerpo))


@pytest.mark.parametrize("cuerpo", ["{no", "", "\udcff", "[" * 5000])
def test_a_body_that_is_not_json_is_refused_in_spanish_even_nested_too_deep(client, cuerpo):
    assert "JSON" in _rechazo(_enviar(client, cuerpo.encode("utf-8", "surrogateescape")))


def test_a_body_over_the_size_cap_is_too_large(client):
    datos = {"redirect_uris": [REDIRECCION], "client_name": "x" * MAX_CUERPO_REGISTRO}
    r = _enviar(client, json.dumps(datos))
    assert r.status_code == 413 and r.json()["error"] == "invalid_client_metadata"


@pytest.mark.parametrize(
    "grant_types",
    ["authorization_code", {"authorization_code": True}, [1], ["authorization_code", None], 7],
)
def test_grant_types_that_are_not_a_list_of_text_are_refused(client, grant_types):
    assert "grant_types" in _rechazo(registrar(client, grant_types=grant_types))


@pytest.mark.parametrize(
    "grant_types",
    [
        [],
        ["refresh_token"],
        ["implicit"],
        ["password"],
        ["authorization_code", "client_credentials"],
        ["urn:ietf:params:oauth:grant-type:device_code"],
    ],
)
def test_any_grant_but_authorization_code_with_refresh_token_is_refused(client, grant_types):
    assert "authorization_code" in _rechazo(registrar(client, grant_types=grant_types))


@pytest.mark.parametrize("grant_types", [["authorization_code"], None])
def test_authorization_code_alone_or_no_grant_types_registers_the_code_flow(client, grant_types):
    r = registrar(client, grant_types=grant_types)
    assert r.status_code == 201
    assert r.json()["grant_types"] == ["authorization_code", "refresh_token"]


@pytest.mark.parametrize(
    "grant_types",
    [
        ["authorization_code", "authorization_code"],
        ["authorization_code", "refresh_token", "refresh_token", "authorization_code"],
    ],
)
def test_a_repeated_grant_type_is_collapsed_neither_stored_nor_echoed_twice(client, grant_types):
    # RFC 7591 3.2.1: the server may replace a requested value; a repeat asks for nothing more.
    r = registrar(client, grant_types=grant_types, response_types=["code", "code"])
    assert r.status_code == 201, r.content
    datos = r.json()
    assert datos["grant_types"] == ["authorization_code", "refresh_token"]
    assert datos["response_types"] == ["code"]
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    assert app.authorization_grant_type == Aplicacion.GRANT_AUTHORIZATION_CODE


def test_a_repeated_redirect_uri_is_kept_once_in_the_order_sent(client):
    otra = "http://127.0.0.1:9999/otra"
    r = registrar(client, redirecciones=(REDIRECCION, otra, REDIRECCION, otra))
    assert r.status_code == 201, r.content
    datos = r.json()
    assert datos["redirect_uris"] == [REDIRECCION, otra]
    app = Aplicacion.objects.get(client_id=datos["client_id"])
    assert app.redirect_uris.split() == [REDIRECCION, otra]


def test_every_value_the_server_metadata_offers_is_accepted_by_registration(client):
    datos = client.get("/.well-known/oauth-authorization-server").json()
    for metodo in datos["token_endpoint_auth_methods_supported"]:
        r = registrar(
            client,
            token_endpoint_auth_method=metodo,
            grant_types=datos["grant_types_supported"],
            response_types=datos["response_types_supported"],
        )
        assert r.status_code == 201, (metodo, r.content)
        assert r.json()["response_types"] == datos["response_types_supported"]


@pytest.mark.parametrize(
    "response_types", ["code", {"code": True}, [1], ["code", None], 7, [["code"]]]
)
def test_response_types_that_are_not_a_list_of_text_are_refused(client, response_types):
    descripcion = _rechazo(registrar(client, response_types=response_types))
    assert descripcion == "response_types debe ser una lista de textos."


@pytest.mark.parametrize(
    "response_types",
    [["token"], ["code", "token"], ["code token"], ["id_token"], ["none"], ["CODE"], [""]],
)
def test_a_response_type_other_than_code_is_refused_in_spanish(client, response_types):
    descripcion = _rechazo(registrar(client, response_types=response_types))
    assert descripcion == (
        "response_types no admitido: este servidor solo admite code (el flujo authorization_code)."
    )


def test_response_types_without_code_do_not_match_the_authorization_code_grant(client):
    # RFC 7591 2.1: authorization_code goes with code, and code with authorization_code.
    descripcion = _rechazo(registrar(client, response_types=[]))
    assert descripcion == (
        "response_types debe incluir code: es la respuesta del flujo authorization_code "
        "(RFC 7591, sección 2.1)."
    )


def test_code_without_the_authorization_code_grant_is_refused(client):
    r = registrar(client, grant_types=["refresh_token"], response_types=["code"])
    assert "authorization_code" in _rechazo(r)


@pytest.mark.parametrize("response_types", [None, "ausente"])
def test_no_response_types_registers_code_and_echoes_it(client, response_types):
    datos = {"redirect_uris": [REDIRECCION], "token_endpoint_auth_method": "none"}
    if response_types != "ausente":
        datos["response_types"] = response_types
    r = _enviar(client, json.dumps(datos))
    assert r.status_code == 201, r.content
    assert r.json()["response_types"] == ["code"]
    assert r.json()["grant_types"] == ["authorization_code", "refresh_token"]


@pytest.mark.parametrize("uris", [REDIRECCION, {"a": REDIRECCION}, 5])
def test_redirect_uris_that_are_not_a_list_are_refused(client, uris):
    assert "redirect_uris" in _rechazo(registrar(client, redirecciones=(), redirect_uris=uris))


@pytest.mark.parametrize("uris", [[], None])
def test_a_client_without_redirect_uris_is_refused(client, uris):
    assert "redirect_uris" in _rechazo(registrar(client, redirecciones=(), redirect_uris=uris))


@pytest.mark.parametrize(
    "uri",
    [
        5,
        None,
        "",
        f"{REDIRECCION} https://otro.example/cb",
        "https://ok.example/c b",
        "https://ok.example/cb\n",
    ],
)
def test_a_redirect_uri_that_is_not_one_address_is_an_invalid_redirect(client, uri):
    # Stored URIs are space separated: one with a space inside would register two.
    _rechazo(registrar(client, redirecciones=[REDIRECCION, uri]), "invalid_redirect_uri")


@pytest.mark.parametrize("nombre", [5, ["Claude"], {"es": "Claude"}, True])
def test_a_client_name_that_is_not_text_is_refused(client, nombre):
    assert "client_name" in _rechazo(registrar(client, nombre=nombre))


@pytest.mark.parametrize("metodo", ["private_key_jwt", "client_secret_jwt", "", 5, ["none"]])
def test_an_unsupported_token_endpoint_auth_method_is_refused(client, metodo):
    descripcion = _rechazo(registrar(client, token_endpoint_auth_method=metodo))
    assert "token_endpoint_auth_method" in descripcion
    assert "none, client_secret_basic, client_secret_post" in descripcion


@pytest.mark.parametrize(
    ("metodo", "tipo"),
    [
        ("none", "public"),
        ("client_secret_basic", "confidential"),
        ("client_secret_post", "confidential"),
    ],
)
def test_the_auth_method_decides_a_public_or_a_confidential_client(client, metodo, tipo):
    datos = registrar(client, token_endpoint_auth_method=metodo).json()
    assert datos["token_endpoint_auth_method"] == metodo
    assert Aplicacion.objects.get(client_id=datos["client_id"]).client_type == tipo
    assert ("client_secret" in datos) == (tipo == "confidential")


def test_fields_sent_as_null_are_fields_not_sent(client):
    r = registrar(
        client, nombre=None, grant_types=None, response_types=None, token_endpoint_auth_method=None
    )
    assert r.status_code == 201
    datos = r.json()
    assert (
        "client_name" not in datos and datos["token_endpoint_auth_method"] == "client_secret_basic"
    )


def test_metadata_the_hub_does_not_use_is_ignored(client):
    r = registrar(client, client_uri="https://ejemplo.example", scope="asistente:leer", otro=[1])
    assert r.status_code == 201


def test_a_name_too_long_is_refused_in_spanish_under_its_rfc_name(client):
    descripcion = _rechazo(registrar(client, nombre="x" * 300))
    assert descripcion.startswith("client_name: ") and "255" in descripcion
    assert "Asegúrese" in descripcion


def test_a_redirect_the_model_finds_malformed_is_refused_in_spanish(client):
    # A private-use scheme with no slash after it: the hub's scheme rule lets it through, the
    # model's URI validation (RFC 8252 7.1's `scheme:/path` form) does not, and the answer names
    # no internal validator. RFC 7591 3.2.2: any fault of a redirect URI is invalid_redirect_uri.
    respuesta = registrar(client, redirecciones=["com.example.app:retorno"])
    descripcion = _rechazo(respuesta, "invalid_redirect_uri")
    assert descripcion.startswith("redirect_uris: ") and "com.example.app:retorno" in descripcion


def test_a_content_length_that_is_not_a_number_is_a_clear_400(client):
    r = client.post("/oauth/register", "{}", content_type="application/json", CONTENT_LENGTH="doce")
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    assert not Aplicacion.objects.exists()
