"""Fixtures of the authorization server's tests: a person signed in, and a client registered."""

from __future__ import annotations

import pytest

from apps.autorizacion.models import Aplicacion
from tests.autorizacion.flujo import registrar
from tests.factories import UserFactory


@pytest.fixture
def sesion(client):
    """The test client, signed in as a person who may use the assistant."""
    client.force_login(UserFactory(username="ana_oauth", permisos=["mcp.asistente.usar"]))
    return client


@pytest.fixture
def app(sesion):
    """A client registered by RFC 7591 as "Claude" (public, PKCE)."""
    return Aplicacion.objects.get(client_id=registrar(sesion, nombre="Claude").json()["client_id"])


@pytest.fixture
def reconocidos(db):
    """The recognised callback hosts as the data migration seeds them (a transactional test run
    earlier flushes the rows a migration wrote)."""
    import importlib

    from django.apps import apps

    semilla = importlib.import_module("apps.autorizacion.migrations.0004_anfitriones_reconocidos")
    semilla.sembrar(apps, None)
    return dict(semilla.SEMILLA)
