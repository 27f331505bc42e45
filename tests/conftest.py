"""Shared fixtures: a clean cache and fresh assistant settings for every test, the credentials
that call the assistant, a signed-in superuser, the demo on a live server, and the real browser."""

from __future__ import annotations

import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.conf import settings
from django.core.cache import caches

from apps.mcp.models import AjustesAsistente
from tests.caches import cliente_redis
from tests.demo import cargar_demo
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token

# The cache-coherence fixtures (a clock, a cache that fails, "another process"), for every app.
pytest_plugins = ["tests.coherencia"]


def limpiar_cache() -> None:
    """Empty this test worker's part of the cache (other workers may share the same Redis)."""
    conf = settings.CACHES["default"]
    cache = caches["default"]  # the backend itself: `django.core.cache.cache` is a proxy
    # Redis by its client, not by clear(): that would flush the whole database under the other
    # workers' feet.
    cliente = cliente_redis(cache)
    if cliente is not None:
        llaves = list(cliente.scan_iter(f"{conf['KEY_PREFIX']}:*"))
        if llaves:
            cliente.delete(*llaves)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _claves_rapidas(settings):
    """Tests create many people; a fast hasher keeps them quick (production keeps PBKDF2)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _ventanas_quietas(monkeypatch):
    """The rate limiter's clock (django-ratelimit's) stands still during a test: windows are
    fixed, and a test that makes 60 requests on a loaded machine could otherwise straddle two
    windows and see its count start again. Tests about windows move this clock themselves."""
    ahora = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: ahora))
    # The cache expires a count by the real clock: with the window standing still, the count must
    # outlive a slow test (600 requests on a loaded machine can take more than a minute).
    monkeypatch.setattr(django_ratelimit.core, "EXPIRATION_FUDGE", 3600)


@pytest.fixture(autouse=True)
def _coherencia_quieta(monkeypatch):
    """hub.cache.coherencia's clock stands still and each test starts as a process that never read
    the
    database's seal: a warm request runs no SQL however slowly the test goes (query counts stay
    exact). Tests about the bound move this clock themselves (tests/hub/test_coherencia.py)."""
    from hub.cache import coherencia

    ahora = time.monotonic()
    monkeypatch.setattr(
        coherencia, "time", SimpleNamespace(monotonic=lambda: ahora, time=time.time)
    )
    coherencia.olvidar_estado()
    yield
    coherencia.olvidar_estado()


@pytest.fixture(autouse=True)
def _cache_limpia():
    limpiar_cache()
    yield
    limpiar_cache()


@pytest.fixture(autouse=True)
def _ajustes_frescos():
    """The assistant's settings are cached per process: each test reads them fresh."""
    AjustesAsistente.olvidar()
    yield
    AjustesAsistente.olvidar()


# --- credentials for calling the assistant (tests/mcp_cliente.py sends the calls) ---------------


@pytest.fixture
def clave():
    """Headers of a valid integration API key."""
    _, secreto = nueva_clave()
    return {"X-MCP-Api-Key": secreto}


@pytest.fixture
def completo():
    """A person with assistant access and every test permission."""
    return UserFactory(
        username="completo_t",
        permisos=["mcp.asistente.usar", "cuentas.view_area", "auth.add_group"],
    )


@pytest.fixture
def limitado():
    """A person with assistant access only."""
    return UserFactory(username="limitado_t", permisos=["mcp.asistente.usar"])


@pytest.fixture
def token_completo(completo):
    return nuevo_token(completo)[1]


@pytest.fixture
def token_limitado(limitado):
    return nuevo_token(limitado)[1]


@pytest.fixture
def como(clave):
    """The headers of the integration key acting for a person: `como(usuario)`."""

    def _como(usuario) -> dict[str, str]:
        return {**clave, "X-MCP-User-Token": nuevo_token(usuario)[1]}

    return _como


@pytest.fixture
def como_completo(clave, token_completo):
    return {**clave, "X-MCP-User-Token": token_completo}


@pytest.fixture
def como_limitado(clave, token_limitado):
    return {**clave, "X-MCP-User-Token": token_limitado}


@pytest.fixture
def admin_client(client):
    """A superuser of the hub (made by the factory, not pytest-django's), signed in."""
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def api(client):
    """Django's test client (an alias that reads well in API tests)."""
    return client


@pytest.fixture
def demo_en_vivo(tmp_path, live_server, settings) -> dict:
    """The demo organization, and links whose `url` points at this live server."""
    settings.HUB_URL_PUBLICA = live_server.url
    AjustesAsistente.olvidar()
    return cargar_demo(tmp_path)


@pytest.fixture
def navegador(live_server, monkeypatch, tmp_path):
    """A real headless Chromium (Debian's) page factory: `navegador(ancho, alto)` -> page.

    Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run
    next to it, hence DJANGO_ALLOW_ASYNC_UNSAFE for these tests only.
    """
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    pw = sync_playwright().start()
    browser = pw.chromium.launch(
        executable_path=RUTA_CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    )
    contextos = []

    def abrir(ancho: int = 1280, alto: int = 800, **opciones):
        contexto = browser.new_context(viewport={"width": ancho, "height": alto}, **opciones)
        contextos.append(contexto)
        pagina = contexto.new_page()
        pagina.set_default_timeout(15000)
        pagina.base = live_server.url
        return pagina

    yield abrir
    # Requests served for the browser opened connections in other threads: close them, or
    # PostgreSQL refuses to drop the test database at the end.
    from django.db import connections

    connections.close_all()
    for contexto in contextos:
        contexto.close()
    browser.close()
    pw.stop()


RUTA_CHROMIUM = "/usr/bin/chromium"
CAPTURAS = __import__("pathlib").Path(__file__).resolve().parent.parent / "var" / "capturas"
