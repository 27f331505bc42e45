"""The brand limit: 600 per minute per IP, shared by both endpoints, adjustable, fail open."""

from __future__ import annotations

import pytest
from django.test import override_settings

from hub.models import Limites
from tests.caches import CACHE_MUERTA
from tests.marca.factories import URL_MARCA, png, poner_imagen, url_archivo

pytestmark = pytest.mark.django_db


def _limite_marca(valor: int) -> None:
    Limites.objects.update_or_create(pk=1, defaults={"marca_por_minuto": valor})
    Limites.olvidar()


def test_the_601st_request_in_a_minute_is_429_rate_limit_with_retry_after(client):
    for i in range(1, 600):
        r = client.get(URL_MARCA)
        assert r.status_code == 200, i
        assert r["X-RateLimit-Limit"] == "600"
        assert r["X-RateLimit-Remaining"] == str(600 - i)
    seiscientos = client.get(URL_MARCA)
    assert seiscientos.status_code == 200
    assert seiscientos["X-RateLimit-Remaining"] == "0"

    r = client.get(URL_MARCA)
    assert r.status_code == 429
    cuerpo = r.json()
    assert cuerpo["success"] is False
    assert cuerpo["error"]["code"] == "RATE_LIMIT"
    assert int(r["Retry-After"]) >= 1
    assert r["X-RateLimit-Limit"] == "600"
    assert r["X-RateLimit-Remaining"] == "0"
    assert "ETag" not in r


def test_both_endpoints_share_one_budget(client):
    _limite_marca(3)
    poner_imagen("logo", png())
    assert client.get(URL_MARCA)["X-RateLimit-Remaining"] == "2"
    assert client.get(url_archivo("logo"))["X-RateLimit-Remaining"] == "1"
    assert client.get(URL_MARCA)["X-RateLimit-Remaining"] == "0"
    r = client.get(url_archivo("logo"))
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "RATE_LIMIT"
    assert int(r["Retry-After"]) >= 1


def test_not_modified_answers_count_too(client):
    _limite_marca(2)
    etag = client.get(URL_MARCA)["ETag"]
    assert client.get(URL_MARCA, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(URL_MARCA, HTTP_IF_NONE_MATCH=etag).status_code == 429


def test_image_404_and_429_carry_the_limit_headers(client):
    _limite_marca(1)
    r = client.get(url_archivo("favicon"))
    assert r.status_code == 404
    assert r["X-RateLimit-Limit"] == "1" and r["X-RateLimit-Remaining"] == "0"
    assert client.get(url_archivo("favicon")).status_code == 429


def test_the_limit_counts_per_ip(client):
    _limite_marca(1)
    assert client.get(URL_MARCA, REMOTE_ADDR="10.0.0.1").status_code == 200
    assert client.get(URL_MARCA, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert client.get(URL_MARCA, REMOTE_ADDR="10.0.0.2").status_code == 200


def test_the_limit_is_read_from_the_organization_settings(client):
    _limite_marca(42)
    assert client.get(URL_MARCA)["X-RateLimit-Limit"] == "42"


def test_the_global_limit_headers_are_also_present(client):
    r = client.get(URL_MARCA)
    assert r["X-RateLimit-Global-Limit"] == "1000"


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_the_brand_is_still_served_without_limit_headers(client):
    poner_imagen("logo", png())
    r = client.get(URL_MARCA)
    assert r.status_code == 200
    assert r.json()["data"]["logo_tipo"] == "png"
    assert "X-RateLimit-Limit" not in r
    imagen = client.get(url_archivo("logo"))
    assert imagen.status_code == 200
    assert imagen["Content-Type"] == "image/png"
