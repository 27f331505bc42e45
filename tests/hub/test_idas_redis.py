"""Redis round trips per request, counted like queries: they must not creep back.

Always against a real Redis (REDIS_URL, or the local one the two-host test also needs), under a
private prefix, whatever cache the rest of the run uses (the `redis_real` fixture).
"""

from __future__ import annotations

import json

import pytest

from apps.cuentas.models import Area
from hub.http.limites import contar
from hub.models import Limites
from tests.factories import AreaFactory, UserFactory
from tests.firmas.factories import firmar
from tests.marca.factories import URL_MARCA, png, poner_imagen
from tests.mcp.factories import nueva_clave, nuevo_token, nuevo_token_oauth

pytestmark = pytest.mark.django_db


def test_counting_a_hit_outside_a_request_is_an_add_then_an_incr_once_the_window_exists(
    redis_real, idas
):
    # django-ratelimit's own calls, one round trip each (docs/decisiones/limites.md).
    contar(grupo="g", clave="otra", limite=5, ventana=60)  # opens the connection (handshake)
    idas[0] = 0
    assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 1
    assert idas[0] == 1
    assert contar(grupo="g", clave="k", limite=5, ventana=60).usados == 2
    assert idas[0] == 3


LOGO = "/auth/api/v1/auth/marca/archivo/logo"


@pytest.mark.parametrize(
    ("ruta", "estado"),
    [
        ("/auth/api/v1/ping", 200),  # Limites and the global count
        (URL_MARCA, 200),  # the same, plus the brand limit and the published brand
        (LOGO, 404),  # the same, with no logo configured
    ],
)
def test_a_warm_request_is_one_round_trip(client, redis_real, idas, ruta, estado):
    client.get(ruta)  # warms the brand and this process's guesses
    idas[0] = 0
    assert client.get(ruta).status_code == estado
    assert idas[0] == 1


def test_a_warm_conditional_logo_request_is_one_round_trip(client, redis_real, idas):
    poner_imagen("logo", png())
    etiqueta = client.get(LOGO)["ETag"]
    client.get(LOGO, headers={"If-None-Match": etiqueta})
    idas[0] = 0
    assert client.get(LOGO, headers={"If-None-Match": etiqueta}).status_code == 304
    assert idas[0] == 1


def test_a_warm_verification_is_one_round_trip(client, redis_real, idas, monkeypatch):
    monkeypatch.setattr(Area, "resumen_firma", lambda self: {"tipo": "cdp"}, raising=False)
    firma = firmar(AreaFactory())
    ruta = f"/presupuesto/api/v1/firmas/verificar/{firma.token}"
    client.get(ruta)
    idas[0] = 0
    r = client.get(ruta)
    assert r.json()["data"]["valido"] is True
    assert idas[0] == 1


def test_a_warm_assistant_ping_with_key_and_token_is_one_round_trip(client, redis_real, idas):
    persona = UserFactory(username="idas", permisos=["mcp.asistente.usar"])
    cabeceras = {
        "HTTP_X_MCP_API_KEY": nueva_clave()[1],
        "HTTP_X_MCP_USER_TOKEN": nuevo_token(persona)[1],
    }
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})

    def llamar():
        return client.post("/mcp/api/mcp", ping, content_type="application/json", **cabeceras)

    llamar()
    llamar()  # the last-use mark is set by now: from here on a request writes nothing
    idas[0] = 0
    r = llamar()
    assert r.json()["result"] == {} and r["X-RateLimit-Remaining"] == "57"
    assert idas[0] == 1


def test_a_warm_assistant_ping_with_an_oauth_token_is_one_round_trip(client, redis_real, idas):
    # The OAuth token is one kind of the credential table: the pre-read guesses its count too.
    persona = UserFactory(username="idas-oauth", permisos=["mcp.asistente.usar"])
    _, secreto = nuevo_token_oauth(persona)
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})

    def llamar():
        return client.post(
            "/mcp/api/mcp",
            ping,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {secreto}",
        )

    llamar()
    llamar()  # the token's and the client's last-use marks are set by now
    idas[0] = 0
    r = llamar()
    assert r.json()["result"] == {} and r["X-RateLimit-Remaining"] == "57"
    assert idas[0] == 1


def test_a_wrong_guess_costs_a_round_trip_never_a_wrong_count(client, redis_real, idas):
    client.get("/auth/api/v1/ping")
    Limites.objects.filter(pk=1).update(global_por_minuto=50)
    Limites.olvidar()  # another host's administrator changed the limit
    idas[0] = 0
    r = client.get("/auth/api/v1/ping")
    assert r["X-RateLimit-Global-Limit"] == "50"
    assert r["X-RateLimit-Global-Remaining"] == "49"  # the count of the new limit starts anew
    # The round trip, the changed row stored again, and the count under the new limit's key.
    assert idas[0] == 3
    idas[0] = 0
    assert client.get("/auth/api/v1/ping")["X-RateLimit-Global-Remaining"] == "48"
    assert idas[0] == 1
