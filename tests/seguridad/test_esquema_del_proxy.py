"""X-Forwarded-Proto is believed only from a trusted proxy's address, like X-Forwarded-For.

Under HUB_PRODUCCION Django reads the scheme from that header (SECURE_PROXY_SSL_HEADER). With
gunicorn reachable directly, a client that sends `X-Forwarded-Proto: https` over plain HTTP
would otherwise skip the HTTPS redirect and pass as secure to CSRF and the secure cookies.
"""

from __future__ import annotations

import pytest

from hub.http.ip import redes_confiables

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"


@pytest.fixture
def produccion(settings):
    """The production profile's TLS settings, with one trusted proxy."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.HUB_PROXIES_CONFIABLES = redes_confiables(PROXY)
    return settings


def _ping(client, *, remoto: str, proto: str | None):
    extra = {"REMOTE_ADDR": remoto}
    if proto is not None:
        extra["HTTP_X_FORWARDED_PROTO"] = proto
    return client.get("/solicitudes/api/v1/ping", **extra)


def test_a_direct_client_that_claims_https_is_still_redirected_to_https(client, produccion):
    respuesta = _ping(client, remoto="203.0.113.9", proto="https")

    assert respuesta.status_code == 301
    assert respuesta["Location"] == "https://testserver/solicitudes/api/v1/ping"


def test_a_trusted_proxy_that_says_https_is_believed(client, produccion):
    respuesta = _ping(client, remoto=PROXY, proto="https")

    assert respuesta.status_code == 200
    assert respuesta.json()["data"]["servicio"] == "solicitudes"


def test_a_trusted_proxy_that_says_http_gets_the_redirect(client, produccion):
    respuesta = _ping(client, remoto=PROXY, proto="http")

    assert respuesta.status_code == 301
    assert respuesta["Location"] == "https://testserver/solicitudes/api/v1/ping"


def test_without_trusted_proxies_nobody_can_claim_https(client, produccion):
    produccion.HUB_PROXIES_CONFIABLES = ()

    respuesta = _ping(client, remoto="127.0.0.1", proto="https")

    assert respuesta.status_code == 301
    assert respuesta["Location"] == "https://testserver/solicitudes/api/v1/ping"
