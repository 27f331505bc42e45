"""The OAuth clients on the hub's admin site: every client with what an administrator needs,
verification, disabling (its tokens stop at once), the switches, and Spanish throughout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from oauth2_provider.models import Grant

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.factories import emitir_token, nueva_aplicacion
from tests.autorizacion.flujo import Pedido
from tests.factories import UserFactory
from tests.mcp_cliente import OAUTH_INVALIDO, rechazo

pytestmark = pytest.mark.django_db

LISTA = "/admin/autorizacion/aplicacion/"
CODIGOS = "/admin/autorizacion/codigoautorizacion/"
USAR = "mcp.asistente.usar"


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_oauth", is_staff=True, is_superuser=True))
    return client


def _accion(administra, accion: str, *apps: Aplicacion):
    return administra.post(
        LISTA, {"action": accion, "_selected_action": [a.pk for a in apps]}, follow=True
    )


def test_the_list_shows_name_redirect_hosts_origin_dates_and_people_connected(administra):
    app = nueva_aplicacion(
        "Claude", redirect_uris="https://claude.ai/api/mcp/auth_callback http://127.0.0.1:5000/cb"
    )
    for nombre in ("ana_admin_o", "beto_admin_o"):
        emitir_token(UserFactory(username=nombre), app)
    html = administra.get(LISTA).content.decode()
    assert "<h1>Aplicaciones conectadas</h1>" in html
    for texto in (
        "Claude",
        "claude.ai, 127.0.0.1:5000",
        "Registro dinámico",
        "No verificada",
        "Personas conectadas",
        "Último uso",
        "Redirige a",
        "Cómo se registró",
    ):
        assert texto in html, texto
    assert '<td class="field-personas">2</td>' in html


def test_marking_verified_shows_on_the_consent_page(administra):
    app = nueva_aplicacion()
    consentimiento = Pedido(client_id=app.client_id).url()
    assert "No verificada" in administra.get(consentimiento).content.decode()
    r = _accion(administra, "verificar", app)
    assert "Aplicaciones marcadas como verificadas: 1." in r.content.decode()
    app.refresh_from_db()
    assert app.verificada
    html = administra.get(consentimiento).content.decode()
    assert "No verificada" not in html and "Verificada" in html


def test_disabling_a_client_stops_its_cached_tokens_at_once(administra):
    app = nueva_aplicacion()
    _, secreto, _ = emitir_token(UserFactory(username="ana_desh", permisos=[USAR]), app)
    assert rechazo(secreto) is None
    r = _accion(administra, "deshabilitar", app)
    assert "Aplicaciones deshabilitadas: 1." in r.content.decode()
    assert rechazo(secreto) == OAUTH_INVALIDO
    _accion(administra, "habilitar", app)
    assert rechazo(secreto) is None


def test_disabling_bumps_the_databases_cache_generation(administra):
    from hub.cache.coherencia import Coherencia

    app = nueva_aplicacion()
    Coherencia.objects.get_or_create(pk=1)
    antes = Coherencia.objects.get(pk=1).generacion
    _accion(administra, "deshabilitar", app)
    assert Coherencia.objects.get(pk=1).generacion == antes + 1


def test_disabling_in_the_form_stops_tokens_too(administra):
    app = nueva_aplicacion("Cursor")
    _, secreto, _ = emitir_token(UserFactory(username="ana_form", permisos=[USAR]), app)
    assert rechazo(secreto) is None
    r = administra.post(
        f"{LISTA}{app.pk}/change/",
        {"name": "Cursor", "redirect_uris": app.redirect_uris, "deshabilitada": "on"},
    )
    assert r.status_code == 302
    assert rechazo(secreto) == OAUTH_INVALIDO


def test_an_administrator_adds_a_public_client_and_http_redirects_must_be_loopback(administra):
    r = administra.post(
        f"{LISTA}add/", {"name": "Interno", "redirect_uris": "http://intranet.example/cb"}
    )
    assert r.status_code == 200 and "Solo se admiten direcciones https" in r.content.decode()
    r = administra.post(
        f"{LISTA}add/", {"name": "Interno", "redirect_uris": "https://intranet.example/cb"}
    )
    assert r.status_code == 302
    app = Aplicacion.objects.get(name="Interno")
    assert app.client_type == "public" and app.registration_source == "manual"
    assert app.authorization_grant_type == "authorization-code"


def test_the_change_form_and_token_lists_are_in_spanish(administra):
    app = nueva_aplicacion()
    emitir_token(UserFactory(username="ana_es"), app)
    html = administra.get(f"{LISTA}{app.pk}/change/").content.decode()
    for texto in ("Direcciones de retorno", "Id de cliente", "Verificada", "Deshabilitada"):
        assert texto in html, texto
    html = administra.get("/admin/autorizacion/tokenacceso/").content.decode()
    assert "<h1>Tokens de acceso OAuth</h1>" in html and "Vence" in html
    assert "Revocar los tokens seleccionados" in html
    html = administra.get("/admin/").content.decode()
    assert "Conexiones OAuth del asistente" in html
    assert "Django OAuth Toolkit" not in html and "Access tokens" not in html


def test_every_oauth_permission_is_named_in_spanish():
    nombres = Permission.objects.filter(
        content_type__app_label__in=["autorizacion", "oauth2_provider"]
    ).values_list("name", flat=True)
    assert nombres and all(n.startswith("Puede ") for n in nombres), list(nombres)


def test_the_oauth_switches_are_in_the_assistant_settings(administra):
    html = administra.get("/admin/mcp/ajustesasistente/", follow=True).content.decode()
    for texto in (
        "Permitir iniciar sesión desde el asistente",
        "Solo aplicaciones verificadas",
        "Las aplicaciones se dan de alta solas",
        "Aceptar aplicaciones que se identifican con una dirección web",
        "Cada cuánto el asistente renueva su acceso",
        "Cuánto dura una conexión sin usarse (días)",
    ):
        assert texto in html, texto


def _codigo(persona, app, codigo: str) -> None:
    Grant.objects.create(
        user=persona,
        application=app,
        code=codigo,
        expires=timezone.now() + timedelta(minutes=1),
        redirect_uri=app.redirect_uris,
        scope="asistente:leer",
    )


def test_the_codes_list_costs_the_same_queries_for_one_code_or_many(administra):
    _codigo(UserFactory(username="ana_cod"), nueva_aplicacion("Uno"), "c1")
    administra.get(CODIGOS)  # the first page of a run fills caches of its own
    with CaptureQueriesContext(connection) as uno:
        assert administra.get(CODIGOS).status_code == 200
    for i in range(2, 5):
        persona = UserFactory(username=f"p_cod{i}")
        _codigo(persona, nueva_aplicacion(f"App {i}"), f"c{i}")
    with CaptureQueriesContext(connection) as varios:
        html = administra.get(CODIGOS).content.decode()
    assert "App 4" in html and str(persona) in html
    assert len(varios) == len(uno)


def test_the_list_shows_used_clients_first_then_the_newest(administra):
    ahora = timezone.now()
    nueva = nueva_aplicacion("Registro sin uso, reciente")
    vieja = nueva_aplicacion("Registro sin uso, viejo")
    Aplicacion.objects.filter(pk=vieja.pk).update(created=ahora - timedelta(days=3))
    usada = nueva_aplicacion("Usada hace una semana", ultimo_uso=ahora - timedelta(days=7))
    Aplicacion.objects.filter(pk=usada.pk).update(created=ahora - timedelta(days=20))
    hoy = nueva_aplicacion("Usada hoy", ultimo_uso=ahora)
    Aplicacion.objects.filter(pk=hoy.pk).update(created=ahora - timedelta(days=40))
    lista = administra.get(LISTA).context["cl"].result_list
    assert [a.pk for a in lista] == [hoy.pk, usada.pk, nueva.pk, vieja.pk]


def test_the_change_form_shows_how_the_client_authenticates_at_the_token_endpoint(administra):
    app = nueva_aplicacion(
        "Claude",
        client_type=Aplicacion.CLIENT_CONFIDENTIAL,
        token_endpoint_auth_method="client_secret_post",
    )
    html = administra.get(f"{LISTA}{app.pk}/change/").content.decode()
    assert "Autenticación en el endpoint de tokens" in html
    assert "Secreto en el cuerpo de la petición" in html
    assert 'name="token_endpoint_auth_method"' not in html  # as registered: not editable
