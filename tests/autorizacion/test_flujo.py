"""The authorization code flow with PKCE, and every refusal on the authorization server's side."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion.models import Aplicacion
from apps.mcp.models import AjustesAsistente
from hub.secretos import huella
from tests.autorizacion.factories import REDIRECCION, nueva_aplicacion
from tests.autorizacion.flujo import (
    MCP,
    Pedido,
    aprobar,
    canjear,
    conectar,
    consulta,
    refrescar,
    registrar,
)
from tests.factories import UserFactory
from tests.mcp_cliente import OAUTH_INVALIDO, identificar, rechazo

pytestmark = pytest.mark.django_db

OTRO_RECURSO = (401, "TOKEN_MCP_INVALIDO", "El token OAuth fue emitido para otro recurso.")
# Every new grant names its areas (all of them ticked unless the person unticks some).
AREAS = ("asistente:calidad", "asistente:presupuesto", "asistente:solicitudes")


@pytest.fixture
def persona():
    return UserFactory(username="ana_flujo", permisos=["mcp.asistente.usar"])


@pytest.fixture
def app(client):
    return Aplicacion.objects.get(client_id=registrar(client, nombre="Claude").json()["client_id"])


@pytest.fixture
def sesion(client, persona):
    client.force_login(persona)
    return client


def _ajustar(**campos) -> None:
    ajustes = AjustesAsistente.fila()
    for nombre, valor in campos.items():
        setattr(ajustes, nombre, valor)
    ajustes.save()


def test_a_person_not_signed_in_goes_to_the_hubs_sign_in_page_first(client, app):
    r = client.get(Pedido(client_id=app.client_id).url())
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/?next=")


def test_the_whole_flow_gives_tokens_with_their_own_prefixes_bound_to_the_mcp_resource(
    sesion, app, persona
):
    _, tokens = conectar(sesion, app.client_id)
    assert tokens["access_token"].startswith("sgioat_")
    assert tokens["refresh_token"].startswith("sgiort_")
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600
    assert set(tokens["scope"].split()) == {"asistente:leer", "asistente:escribir", *AREAS}
    fila = AccessToken.objects.get()
    assert fila.resource == [MCP] and fila.token == "" and fila.user == persona
    identidad = identificar(tokens["access_token"])
    assert identidad.usuario == persona and identidad.oauth.aplicacion == app
    assert identidad.oauth.recursos == (MCP,)


def test_the_authorization_response_names_the_issuer_and_echoes_the_state(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    r = aprobar(sesion, pedido)
    datos = consulta(r["Location"])
    assert r["Location"].startswith(REDIRECCION + "?")
    assert datos["state"] == pedido.state and datos["iss"] == "http://127.0.0.1:8000"


def test_without_pkce_no_code_is_given(sesion, app):
    r = sesion.get(Pedido(client_id=app.client_id, reto="", metodo=None).url())
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_request" and "code" not in datos
    assert not Grant.objects.exists()


def test_plain_pkce_is_refused_before_any_consent(sesion, app):
    pedido = Pedido(client_id=app.client_id, metodo="plain", reto="x" * 43)
    r = sesion.get(pedido.url())
    assert r.status_code == 302
    datos = consulta(r["Location"])
    assert datos["error"] == "invalid_request" and "code" not in datos


def test_a_challenge_without_its_method_is_taken_as_plain_and_refused(sesion, app):
    pedido = Pedido(client_id=app.client_id, metodo=None)
    r = sesion.get(pedido.url())
    assert consulta(r["Location"])["error"] == "invalid_request"


def test_an_unregistered_redirect_is_never_followed(sesion, app):
    pedido = Pedido(client_id=app.client_id, redirect_uri="http://127.0.0.1:9/otro")
    r = sesion.get(pedido.url())
    assert r.status_code == 400
    assert "Location" not in r
    assert "No se pudo conectar la aplicación" in r.content.decode()


def test_an_unknown_client_gets_the_error_page_not_a_redirect(sesion):
    r = sesion.get(Pedido(client_id="desconocido").url())
    assert r.status_code in (400, 401) and "Location" not in r


def test_a_client_cannot_keep_a_non_loopback_http_redirect(app):
    app.redirect_uris = "http://asistente.example.com/cb"
    with pytest.raises(Exception) as error:
        app.full_clean()
    assert error.value.error_dict["redirect_uris"][-1].code == "invalid_redirect_uri"


def test_a_code_works_once(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    assert canjear(sesion, pedido, codigo).status_code == 200
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()  # the replay revoked what the code gave


def test_a_wrong_verifier_gets_no_token(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    r = canjear(sesion, pedido, codigo, verificador="v" * 50)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


def test_a_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(sesion, app):
    _, primeros = conectar(sesion, app.client_id)
    r = refrescar(sesion, app.client_id, primeros["refresh_token"])
    assert r.status_code == 200
    segundos = r.json()
    assert segundos["refresh_token"] != primeros["refresh_token"]
    assert segundos["access_token"].startswith("sgioat_")
    assert rechazo(primeros["access_token"]) == OAUTH_INVALIDO
    assert rechazo(segundos["access_token"]) is None
    # The old refresh token again: refused, and what was issued from it stops working.
    r = refrescar(sesion, app.client_id, primeros["refresh_token"])
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert rechazo(segundos["access_token"]) == OAUTH_INVALIDO
    assert refrescar(sesion, app.client_id, segundos["refresh_token"]).status_code == 400


def test_lifetimes_are_the_administrators(sesion, app):
    _ajustar(oauth_acceso_segundos=600, oauth_refresco_dias=2)
    _, tokens = conectar(sesion, app.client_id)
    assert tokens["expires_in"] == 600
    fila = AccessToken.objects.get()
    assert abs((fila.expires - timezone.now()).total_seconds() - 600) < 30
    # A refresh token older than its lifetime is refused; each rotation starts it again.
    RefreshToken.objects.update(created=timezone.now() - timedelta(days=2, seconds=1))
    r = refrescar(sesion, app.client_id, tokens["refresh_token"])
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"


def test_a_refresh_within_its_lifetime_slides_it(sesion, app):
    _ajustar(oauth_refresco_dias=2)
    _, tokens = conectar(sesion, app.client_id)
    RefreshToken.objects.update(created=timezone.now() - timedelta(days=1, hours=23))
    nuevos = refrescar(sesion, app.client_id, tokens["refresh_token"]).json()
    vivo = RefreshToken.objects.get(revoked__isnull=True)
    assert timezone.now() - vivo.created < timedelta(minutes=1)
    assert refrescar(sesion, app.client_id, nuevos["refresh_token"]).status_code == 200


def test_a_refresh_token_that_names_no_resource_gives_a_token_bound_to_the_mcp_resource(
    sesion, app
):
    _, tokens = conectar(sesion, app.client_id)
    RefreshToken.objects.update(resource=[])  # a row from before tokens named their resource
    nuevos = refrescar(sesion, app.client_id, tokens["refresh_token"]).json()
    assert identificar(nuevos["access_token"]).oauth.recursos == (MCP,)


def test_a_refresh_keeps_the_resource_its_token_was_issued_for(sesion, app):
    _, tokens = conectar(sesion, app.client_id, resource="https://otro.example/api")
    nuevos = refrescar(sesion, app.client_id, tokens["refresh_token"]).json()
    assert AccessToken.objects.get(token_checksum=huella(nuevos["access_token"])).resource == [
        "https://otro.example/api"
    ]
    assert rechazo(nuevos["access_token"]) == OTRO_RECURSO


def test_a_token_asked_for_another_resource_is_bound_to_it(sesion, app):
    _, tokens = conectar(sesion, app.client_id, resource="https://otro.example/api")
    fila = AccessToken.objects.get()
    assert fila.resource == ["https://otro.example/api"]
    assert rechazo(tokens["access_token"]) == OTRO_RECURSO  # the MCP endpoint refuses it


def test_the_mcp_resource_asked_for_explicitly_is_kept(sesion, app):
    _, tokens = conectar(sesion, app.client_id, resource=MCP)
    assert identificar(tokens["access_token"]).oauth.recursos == (MCP,)


def test_revocation_ends_the_access_and_refresh_tokens(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    r = sesion.post("/oauth/revoke", {"token": tokens["access_token"], "client_id": app.client_id})
    assert r.status_code == 200
    assert rechazo(tokens["access_token"]) == OAUTH_INVALIDO
    assert refrescar(sesion, app.client_id, tokens["refresh_token"]).status_code == 400


def test_revoking_the_refresh_token_ends_the_access_token_too(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    r = sesion.post(
        "/oauth/revoke",
        {
            "token": tokens["refresh_token"],
            "token_type_hint": "refresh_token",
            "client_id": app.client_id,
        },
    )
    assert r.status_code == 200 and rechazo(tokens["access_token"]) == OAUTH_INVALIDO


def test_a_disabled_client_gets_no_token_at_the_token_endpoint(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    Aplicacion.objects.filter(pk=app.pk).update(deshabilitada=True)
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"
    assert not AccessToken.objects.exists()


def test_a_disabled_client_cannot_refresh(sesion, app):
    _, tokens = conectar(sesion, app.client_id)
    Aplicacion.objects.filter(pk=app.pk).update(deshabilitada=True)
    r = refrescar(sesion, app.client_id, tokens["refresh_token"])
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"


def test_a_disabled_client_gets_no_consent_page(sesion, app):
    Aplicacion.objects.filter(pk=app.pk).update(deshabilitada=True)
    r = sesion.get(Pedido(client_id=app.client_id).url())
    assert r.status_code in (400, 401) and "Location" not in r


@pytest.mark.parametrize(
    "ajustes",
    [
        {"oauth_habilitado": False},
        {"oauth_solo_verificadas": True},
        {"oauth_registro_abierto": False},
    ],
)
def test_switches_keep_self_registered_unverified_clients_out(sesion, app, ajustes):
    _ajustar(**ajustes)
    r = sesion.get(Pedido(client_id=app.client_id).url())
    assert r.status_code in (400, 401) and not Grant.objects.exists()


def test_a_verified_client_still_connects_with_only_verified_clients_allowed(sesion, app):
    Aplicacion.objects.filter(pk=app.pk).update(verificada=True)
    _ajustar(oauth_solo_verificadas=True, oauth_registro_abierto=False)
    conectar(sesion, app.client_id)


def test_a_client_added_by_an_administrator_connects_with_registration_closed(sesion):
    _ajustar(oauth_registro_abierto=False)
    app = nueva_aplicacion(registration_source=Aplicacion.Origen.MANUAL)
    conectar(sesion, app.client_id)


def test_metadata_document_clients_are_refused_while_switched_off(sesion):
    r = sesion.get(Pedido(client_id="https://cliente.example/metadatos.json").url())
    assert r.status_code in (400, 401) and not Aplicacion.objects.exists()


def test_a_blocked_person_gets_no_code(client, app, persona):
    client.force_login(persona)
    persona.is_active = False
    persona.save()
    r = client.get(Pedido(client_id=app.client_id).url())
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/")
    assert not Grant.objects.exists()


def test_a_person_without_assistant_access_is_told_why_and_gets_no_code(client, app):
    client.force_login(UserFactory(username="sin_asistente"))
    pedido = Pedido(client_id=app.client_id)
    r = client.get(pedido.url())
    assert r.status_code == 403
    html = r.content.decode()
    assert "Su usuario no tiene acceso al asistente" in html and 'name="allow"' not in html
    # A forged approval is still refused; going back tells the client access_denied.
    datos = {n: v for n, v in r.context["form"].initial.items() if v is not None}
    r = client.post(
        "/oauth/authorize",
        {**datos, "allow": "Autorizar", "escribir": "1", "areas": ["calidad"]},
    )
    assert r.status_code == 403 and not Grant.objects.exists()
    r = client.post("/oauth/authorize", datos)
    assert consulta(r["Location"])["error"] == "access_denied"
    assert not Grant.objects.exists()


def test_denying_sends_the_client_back_with_access_denied_and_its_state(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    r = aprobar(sesion, pedido, permitir=False)
    datos = consulta(r["Location"])
    assert datos["error"] == "access_denied" and datos["state"] == pedido.state
    assert "code" not in datos and not Grant.objects.exists()


def test_unticking_writing_gives_a_read_only_token(sesion, app):
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido, escribir=False)["Location"])["code"]
    tokens = canjear(sesion, pedido, codigo).json()
    assert tokens["scope"] == " ".join(sorted(["asistente:leer", *AREAS]))
    assert not identificar(tokens["access_token"]).puede_escribir


def test_a_client_that_names_no_scope_gets_reading(sesion, app):
    _, tokens = conectar(sesion, app.client_id, scope=None)
    assert tokens["scope"] == " ".join(sorted(["asistente:leer", *AREAS]))


def test_a_person_who_already_approved_is_not_asked_again(sesion, app):
    conectar(sesion, app.client_id)
    pedido = Pedido(client_id=app.client_id)
    r = sesion.get(pedido.url())
    assert r.status_code == 302 and "code" in consulta(r["Location"])
    # Asking for more than was approved shows the page again.
    AccessToken.objects.update(scope="asistente:leer")
    assert sesion.get(Pedido(client_id=app.client_id).url()).status_code == 200


def test_after_disconnecting_the_person_is_asked_again(sesion, app, persona):
    from apps.autorizacion import services

    conectar(sesion, app.client_id)
    services.desconectar(usuario_id=persona.pk, aplicacion_id=app.pk)
    assert sesion.get(Pedido(client_id=app.client_id).url()).status_code == 200


def test_the_consent_page_names_the_client_the_host_the_person_and_the_choices(
    sesion, app, persona
):
    html = sesion.get(Pedido(client_id=app.client_id).url()).content.decode()
    assert "Claude" in html and "No verificada" in html
    assert "127.0.0.1:33418" in html and persona.username in html
    assert 'name="escribir" value="1" checked' in html and 'name="allow"' in html
    assert "Consultar en su nombre" in html and "Escribir en su nombre" in html
    Aplicacion.objects.filter(pk=app.pk).update(verificada=True)
    html = sesion.get(Pedido(client_id=app.client_id).url()).content.decode()
    assert "No verificada" not in html and "Verificada" in html


def test_a_read_only_request_shows_no_write_choice(sesion, app):
    html = sesion.get(Pedido(client_id=app.client_id, scope="asistente:leer").url())
    assert 'name="escribir"' not in html.content.decode()


def test_the_consent_pages_forms_may_end_only_here_and_at_the_clients_redirect(sesion, app):
    csp = sesion.get(Pedido(client_id=app.client_id).url())["Content-Security-Policy"]
    assert "form-action 'self' http://127.0.0.1:33418;" in csp + ";"
    assert "unsafe-inline" not in csp


def test_a_confidential_client_exchanges_its_code_with_its_secret(sesion):
    datos = registrar(sesion, token_endpoint_auth_method="client_secret_post").json()
    pedido = Pedido(client_id=datos["client_id"])
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    assert canjear(sesion, pedido, codigo, client_secret="otro").status_code == 401
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    r = canjear(sesion, pedido, codigo, client_secret=datos["client_secret"])
    assert r.status_code == 200 and r.json()["access_token"].startswith("sgioat_")


def test_a_client_asking_for_consent_gets_the_page_even_after_an_approval(sesion, app):
    conectar(sesion, app.client_id)
    r = sesion.get(Pedido(client_id=app.client_id).url() + "&prompt=consent")
    assert r.status_code == 200 and 'name="allow"' in r.content.decode()


def test_someone_else_signs_out_and_comes_back_to_the_same_request(sesion, app):
    url = Pedido(client_id=app.client_id).url()
    html = sesion.get(url).content.decode()
    assert 'action="/cuentas/logout/"' in html and "Ingrese con otra cuenta" in html
    r = sesion.post("/cuentas/logout/", {"next": url})
    assert r.status_code == 302 and r["Location"] == url
    r = sesion.get(url)
    assert r.status_code == 302 and r["Location"].startswith("/cuentas/login/?next=")


@pytest.mark.parametrize("concesion", ["password", "client_credentials", "implicit"])
def test_no_grant_but_the_code_and_its_refresh_exists(client, app, concesion):
    r = client.post(
        "/oauth/token",
        {"grant_type": concesion, "client_id": app.client_id, "username": "x", "password": "y"},
    )
    assert r.status_code == 400 and r.json()["error"] == "unsupported_grant_type"


def test_the_implicit_response_type_is_refused(sesion, app):
    parametros = (
        Pedido(client_id=app.client_id).url().replace("response_type=code", "response_type=token")
    )
    r = sesion.get(parametros)
    assert r.status_code == 302, r.status_code
    assert consulta(r["Location"])["error"] == "unsupported_response_type"
    assert not AccessToken.objects.exists() and not Grant.objects.exists()


def test_a_replayed_code_revokes_the_tokens_rotated_from_it_too(sesion, app):
    # OAuth 2.1 (draft) 4.1.3 / RFC 6749 4.1.2: a replayed code is a stolen one.
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    primeros = canjear(sesion, pedido, codigo).json()
    segundos = refrescar(sesion, app.client_id, primeros["refresh_token"]).json()
    r = canjear(sesion, pedido, codigo)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert rechazo(segundos["access_token"]) == OAUTH_INVALIDO  # rotated from it: revoked too
    assert refrescar(sesion, app.client_id, segundos["refresh_token"]).status_code == 400


def test_a_replayed_code_revokes_only_the_tokens_it_gave(sesion, app):
    # The same person and client, an earlier consent (read only, so the next one is asked).
    otros = conectar(sesion, app.client_id, scope="asistente:leer")[1]
    pedido = Pedido(client_id=app.client_id)
    codigo = consulta(aprobar(sesion, pedido)["Location"])["code"]
    canjear(sesion, pedido, codigo)
    assert canjear(sesion, pedido, codigo).status_code == 400
    assert rechazo(otros["access_token"]) is None
    assert refrescar(sesion, app.client_id, otros["refresh_token"]).status_code == 200
